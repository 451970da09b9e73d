/**
 * A directory syncing one small phonebook in pages of two from the simulator, with a pacer the test
 * holds (a change on its way to the platform, a slow link): the rig of the tests of a sync whose
 * list moves or whose boundaries are asked about (page-walk.ts).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSimulator } from '../../simulator/index';
import type { PlatformApi } from '../../src-main/core/api/platform-api';
import type { Contact } from '../../src-main/core/api/schemas';
import { Directory } from '../../src-main/core/directory/directory';
import { RequestPacer } from '../../src-main/core/directory/request-pacer';
import { silentLogger } from '../../src-main/core/log/logger';
import { apiFor } from './api-rig';
import { startSim } from './sim-harness';
import type { SimProfile } from './sim-harness';

/** Contacts a page. */
export const PAGE = 2;

/** A pacer whose requests first wait on `gate` (a change under way, a slow link, the test). */
export class GatedPacer extends RequestPacer {
  gate: () => Promise<unknown> = () => Promise.resolve();

  constructor() {
    super({ budget: 1000, windowMs: 1000 });
  }

  override async take(signal?: AbortSignal): Promise<void> {
    await this.gate();
    return super.take(signal);
  }
}

/**
 * A simulator of `profile` with one shared phonebook named `description` holding a contact for
 * each of `names` (numbers +4930555100N, speed dials 200N, in that order by number).
 */
export async function simWithBook(profile: SimProfile, description: string, names: string[]) {
  const sim = await startSim({
    profile,
    contacts: 0,
    rateLimits: { phonebook: { limit: 100_000, window_seconds: 60 } },
  });
  const { api } = await apiFor(sim, 0);
  const book = await api.phonebooks.createPhonebook({ description, priority: 1, is_shared: true });
  const contacts: Contact[] = [];
  for (const [index, name] of names.entries()) {
    contacts.push(
      await api.phonebooks.createContact({
        phonebook: book.id,
        display_name: name,
        number: `+4930555100${index}`,
        secondary_number: null,
        speed_dial: 2000 + index,
      }),
    );
  }
  return { sim, api, contacts };
}

/** A directory of its own profile syncing `sim` through `api` in pages of PAGE, paced by `pacer`. */
export async function pagedDirectory(
  sim: RunningSimulator,
  api: PlatformApi,
  pacer: GatedPacer,
): Promise<Directory> {
  return new Directory({
    dataDir: await mkdtemp(join(tmpdir(), 'callbar-')),
    region: 'DE',
    log: silentLogger,
    phonebooks: () => api.phonebooks,
    owner: () => ({ tenant_id: sim.tenant_id, user_extension: '201', base_url: sim.base_url }),
    intervalMs: 15 * 60_000,
    pageSize: PAGE,
    pacer,
  });
}
