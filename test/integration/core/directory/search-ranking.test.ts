/**
 * Search ranking over a realistic directory: the simulator's rich profile at the contract's
 * largest tenant (8,700 contacts), synced by the core over HTTP and searched through the router
 * as the window does. Names starting with the query come first, then names with a word starting
 * with it, then companies; a contact the user has called ranks ahead of equal matches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import type { SearchHit, SearchResult } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import { foldText } from '../../../../src-main/core/directory/text-fold';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { startTestCore } from '../../../support/test-core';
import { issuedSession, startSim } from '../../../support/sim-harness';

const CONTACTS = 8_700;

/** Where a hit matched "mar": 0 the name's start, 1 a later word of the name, 2 the company. */
function place(hit: SearchHit, query: string): number {
  const words = (text: string) => foldText(text).split(/[^\p{L}\p{N}]+/u);
  const name = words(hit.contact.display_name);
  if (name[0]!.startsWith(query)) return 0;
  if (name.some((word) => word.startsWith(query))) return 1;
  expect(words(hit.contact.company).some((word) => word.startsWith(query))).toBe(true);
  return 2;
}

describe('search ranking at 8,700 contacts', () => {
  let sim: RunningSimulator;
  let core: CallbarCore;
  const search = async (query: string, limit = 50): Promise<SearchHit[]> => {
    const answer = await core.router.invoke('directory.search', { query, limit });
    expect(answer.ok).toBe(true);
    return (answer as { value: SearchResult }).value.hits;
  };

  beforeAll(async () => {
    sim = await startSim({ contacts: CONTACTS });
    const vault = new MemoryVault();
    await vault.save(await issuedSession(sim, sim.users[0]!));
    core = await new Promise<CallbarCore>((resolve) => {
      void startTestCore({ env: { CALLBAR_BASE_URL: sim.base_url }, vault }).then((started) => {
        started.events.subscribe((event) => {
          if (event.type === 'directory.changed' && event.status.state === 'ready') {
            resolve(started);
          }
        });
      });
    });
  }, 60_000);
  afterAll(async () => {
    await core?.close();
    await sim?.close();
  });

  it('ranks names starting with "mar" first, then surnames, then companies', async () => {
    expect(core.directory.status().contacts).toBe(CONTACTS);
    const hits = await search('mar', 500);
    const places = hits.map((hit) => place(hit, 'mar'));
    expect(places[0]).toBe(0);
    expect(hits[0]!.contact.display_name).toMatch(/^Mar/);
    // Every name start before every surname, every surname before every company.
    expect(places).toEqual([...places].sort((a, b) => a - b));
    expect(new Set(places)).toEqual(new Set([0, 1, 2]));
  });

  it('ranks a contact the user has called ahead of equal matches', async () => {
    const before = await search('marta', 500);
    // The last "Marta …" of the page: an equal match (a whole first word) to the first one.
    const equal = before.filter(
      (hit) => hit.match === before[0]!.match && place(hit, 'marta') === 0,
    );
    expect(equal.length).toBeGreaterThan(1);
    const called = equal[equal.length - 1]!.contact;
    expect(before[0]!.contact.id).not.toBe(called.id);

    const dialed = await core.router.invoke('calls.dial', { target: called.number, source: 'ui' });
    expect(dialed.ok).toBe(true);
    const after = await search('marta', 500);
    expect(after[0]!.contact.id).toBe(called.id);
    // The rest keep their order.
    expect(after.slice(1).map((hit) => hit.contact.id)).toEqual(
      before.map((hit) => hit.contact.id).filter((id) => id !== called.id),
    );
    // A weaker match stays behind the better ones: "mar" still starts with a name starting with it.
    expect((await search('mar'))[0]!.contact.display_name).toMatch(/^Mar/);
  });
});
