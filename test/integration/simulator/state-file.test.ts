import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';

const dirs: string[] = [];
const sims: RunningSimulator[] = [];
afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(stateFile: string | undefined) {
  const sim = await startSimulator({ contacts: 5, seed: 7, autoAnswer: false, stateFile });
  sims.push(sim);
  return sim;
}

async function phonebooks(sim: RunningSimulator, token: string) {
  const answer = await fetch(`${sim.base_url}/v3/phonebook/phonebook/`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return answer.status;
}

async function refresh(sim: RunningSimulator, token: string) {
  const answer = await fetch(`${sim.base_url}/v3/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: token,
      client_id: sim.client_id,
      client_secret: sim.client_secret,
    }),
  });
  return answer.status;
}

describe('a simulator with a state file (the demo’s --state)', () => {
  it('knows the tokens it issued after a restart; without the file it does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callbar-sim-state-'));
    dirs.push(dir);
    const file = join(dir, 'simulator.json');
    const first = await start(file);
    const tokens = await new SimControl(first.base_url).issueTokens({
      tenant_id: first.tenant_id,
      user_extension: first.users[0]!.extension,
    });
    expect(await phonebooks(first, tokens.access_token)).toBe(200);
    await first.close();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('activations');

    const again = await start(file);
    expect(await phonebooks(again, tokens.access_token)).toBe(200);
    expect(await refresh(again, tokens.refresh_token)).toBe(200);
    // Spent, and so kept: the next restart refuses it again.
    await again.close();
    const third = await start(file);
    expect(await refresh(third, tokens.refresh_token)).toBe(400);

    const fresh = await start(undefined);
    expect(await phonebooks(fresh, tokens.access_token)).toBe(401);
  });
});
