/**
 * `callbar phonebooks` and `callbar contacts` write through the editing layer the window uses
 * (core/phonebooks/phonebook-editor.ts): the same refusals, in the same words, as the window's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator/index';
import type { WorldSummary } from '../../../simulator/control-types';
import { runCallbarInProcess } from '../../support/cli-process';
import { control } from '../../support/sim-harness';
import { signedInCli } from '../../support/signed-in-cli';

describe('callbar phonebooks / contacts: the window’s editing layer', () => {
  let sim: RunningSimulator;
  let env: NodeJS.ProcessEnv;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ sim, env, close } = await signedInCli({ contacts: 20 }));
  });
  afterAll(() => close());

  it('phonebooks delete of a phonebook on a phone says which and what to do', async () => {
    const world = await control<WorldSummary>(sim, 'GET', 'world');
    const held = world.phonebooks.find((book) => book.device_ids.length > 0)!;
    const device = world.devices.find((entry) => entry.id === held.device_ids[0])!;
    const refused = await runCallbarInProcess(['phonebooks', 'delete', String(held.id)], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(device.name);
    expect(refused.stderr).toContain(
      "Take it off those phones in the platform's portal first, then delete it.",
    );
  });

  it('contacts bulk-delete refused for one contact says nothing was deleted', async () => {
    const world = await control<WorldSummary>(sim, 'GET', 'world');
    const queue = world.call_queues.find((entry) => entry.contact_ids.length > 0)!;
    const inUse = queue.contact_ids[0]!;
    const refused = await runCallbarInProcess(['contacts', 'bulk-delete', String(inUse)], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^callbar: Nothing was deleted\./);
    expect(refused.stderr).toContain(queue.name);
  });
});
