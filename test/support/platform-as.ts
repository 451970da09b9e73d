import type { RunningSimulator } from '../../simulator/index';
import { SimControl } from '../../simulator/control-client';

/** Creates a resource at the platform's REST API (`path`), answering its id. */
export type PlatformCreate = (path: string, body: object) => Promise<{ id: number }>;

/**
 * Another client of the platform, signed in as the simulator's user `extension` (a coworker, or
 * the person in a test who uses the portal elsewhere): creates through the REST API as any
 * integrator would, and throws with the platform's answer unless it is 201.
 */
export async function platformAs(
  sim: RunningSimulator,
  extension: string,
): Promise<PlatformCreate> {
  const { access_token } = await new SimControl(sim.base_url).issueTokens({
    tenant_id: sim.tenant_id,
    user_extension: extension,
  });
  return async (path, body) => {
    const response = await fetch(`${sim.base_url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) {
      throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    }
    return (await response.json()) as { id: number };
  };
}
