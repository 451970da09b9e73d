import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DirectoryContact } from '../../../../src-shared/contract';
import {
  ContactIndex,
  type ContactIndexOptions,
} from '../../../../src-main/core/directory/contact-index';
import { writeCache } from '../../../../src-main/core/directory/directory-cache';
import {
  buildGradually,
  Directory,
  type DirectoryOptions,
  type GradualBuild,
} from '../../../../src-main/core/directory/directory';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { generateDirectory } from '../../../../bench/search-data';

/**
 * A large cached directory answers its first searches at once (issue 31): from a scan while its
 * index is built in slices between requests, with the index's hits, then from the index.
 */
const owner = { tenant_id: 'acme', user_extension: '201', base_url: 'http://127.0.0.1:1/' };
const { contacts, priorities } = generateDirectory(5_000, 3);
const options: ContactIndexOptions = {
  region: 'DE',
  priorityOf: (phonebook) => priorities.get(phonebook),
};
const QUERIES = ['mar', 'schmdit', '030', 'acme', contacts[42]!.number];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The build the directory runs, recording each slice and the end in `events`. */
function recorded(events: string[], onSlice?: () => void): GradualBuild {
  return function* (all: readonly DirectoryContact[], indexOptions: ContactIndexOptions) {
    const steps = buildGradually(all, indexOptions);
    for (;;) {
      const step = steps.next();
      if (step.done) {
        events.push('index built');
        return step.value;
      }
      events.push('slice');
      onSlice?.();
      yield;
    }
  };
}

async function cachedDirectory(
  buildIndex: GradualBuild,
  more: Partial<DirectoryOptions> = {},
  syncedAt = new Date(),
): Promise<Directory> {
  const dataDir = mkdtempSync(join(tmpdir(), 'callbar-gradual-'));
  dirs.push(dataDir);
  await writeCache(dataDir, {
    owner,
    synced_at: syncedAt.toISOString(),
    phonebooks: [...priorities].map(([id, priority]) => ({
      id,
      description: `Phonebook ${id}`,
      priority,
    })),
    contacts,
  });
  return new Directory({
    dataDir,
    region: 'DE',
    log: silentLogger,
    phonebooks: () => undefined,
    owner: () => owner,
    intervalMs: 3_600_000,
    buildIndex,
    ...more,
  });
}

describe('a large directory read from the cache', () => {
  const whole = ContactIndex.build(contacts, options);

  it('answers right after loading, before its index is built, with the index’s hits', async () => {
    const events: string[] = [];
    const directory = await cachedDirectory(recorded(events));
    expect((await directory.load()).contacts).toBe(contacts.length);
    for (const query of QUERIES) {
      expect(directory.search(query).hits).toEqual(whole.search(query));
    }
    events.push('searched');
    await directory.indexReady();
    expect(events.indexOf('searched')).toBeLessThan(events.indexOf('index built'));
    await directory.close();
  });

  it('starts building only once the first search is answered', async () => {
    const events: string[] = [];
    // No search would come for a minute: only the search starts the build.
    const directory = await cachedDirectory(recorded(events), { buildAfterMs: 60_000 });
    await directory.load();
    await new Promise((turned) => setImmediate(turned));
    await new Promise((turned) => setImmediate(turned));
    expect(events).toEqual([]);
    expect(directory.search('mar').hits).toEqual(whole.search('mar'));
    events.push('searched');
    await directory.indexReady();
    expect(events.slice(0, 2)).toEqual(['searched', 'slice']);
    await directory.close();
  });

  it('checks whether a stale directory needs a sync only after the first answer', async () => {
    const events: string[] = [];
    const directory = await cachedDirectory(
      recorded(events),
      { buildAfterMs: 60_000 },
      new Date(Date.now() - 86_400_000),
    );
    const syncs: string[] = [];
    directory.onChange((status) => {
      if (status.state === 'syncing') syncs.push('sync started');
    });
    await directory.load();
    directory.startRefresh(() => true);
    await new Promise((turned) => setImmediate(turned));
    await new Promise((turned) => setImmediate(turned));
    expect(syncs).toEqual([]);
    directory.search('mar');
    await directory.indexReady();
    await new Promise((turned) => setImmediate(turned));
    // No platform here: the sync fails at once; that it started is what counts.
    expect(syncs).toEqual(['sync started']);
    await directory.close();
  });

  it('starts building after a moment when no search comes', async () => {
    const events: string[] = [];
    const directory = await cachedDirectory(recorded(events), { buildAfterMs: 1 });
    await directory.load();
    await directory.indexReady();
    expect(events.at(-1)).toBe('index built');
    await directory.close();
  });

  it('switches to its index once built, slice by slice in turns of the event loop', async () => {
    const events: string[] = [];
    const directory = await cachedDirectory(recorded(events));
    await directory.load();
    const turns: string[] = [];
    const watch = () => {
      turns.push(`turn ${events.length}`);
      if (!events.includes('index built')) setImmediate(watch);
    };
    setImmediate(watch);
    await directory.indexReady();
    expect(events.at(-1)).toBe('index built');
    // Between two slices the event loop turned: the build never ran two slices in one go.
    expect(new Set(turns).size).toBeGreaterThanOrEqual(events.length - 1);
    for (const query of QUERIES) {
      expect(directory.search(query).hits).toEqual(whole.search(query));
    }
    // Built once, by the event loop: asking for the contacts builds nothing more.
    const built = events.length;
    expect(directory.contacts).toHaveLength(contacts.length);
    expect(events).toHaveLength(built);
    await directory.close();
  });

  it('answers a search that arrives during the build between two of its slices', async () => {
    const events: string[] = [];
    const opened: { directory?: Directory } = {};
    const answers: unknown[] = [];
    let asked = false;
    const build = recorded(events, () => {
      if (asked) return;
      asked = true;
      // A request arriving while the build runs: handled in the next turn of the event loop.
      setImmediate(() => {
        answers.push(opened.directory!.search('mar').hits);
        events.push('search answered');
      });
    });
    const directory = (opened.directory = await cachedDirectory(build));
    await directory.load();
    await directory.indexReady();
    expect(events.indexOf('search answered')).toBeGreaterThan(events.indexOf('slice'));
    expect(events.indexOf('search answered')).toBeLessThan(events.indexOf('index built'));
    expect(answers).toEqual([whole.search('mar')]);
    await directory.close();
  });

  it('reads its speed dials before the index is built, from the cache, as the index has them', async () => {
    const events: string[] = [];
    const directory = await cachedDirectory(recorded(events), { buildAfterMs: 60_000 });
    await directory.load();
    const codes = (listed: Iterable<number | null>) =>
      [...listed].map((code) => code ?? -1).sort((a, b) => a - b);
    const expected = codes(whole.contacts.map((contact) => contact.speed_dial));
    expect(expected.some((code) => code >= 0)).toBe(true);
    expect(codes(directory.speedDials())).toEqual(expected);
    expect(events).toEqual([]);
    directory.search('mar');
    await directory.indexReady();
    expect(codes(directory.speedDials())).toEqual(expected);
    await directory.close();
  });

  it('finds contacts by id (favourites) before the index is built, as the index does', async () => {
    const events: string[] = [];
    const directory = await cachedDirectory(recorded(events), { buildAfterMs: 60_000 });
    await directory.load();
    const ids = new Set([0, 77, 1_234, 4_999].map((at) => contacts[at]!.id));
    const byId = (listed: readonly DirectoryContact[]) => [...listed].sort((a, b) => a.id - b.id);
    expect(byId(directory.withIds(ids))).toEqual(byId(whole.withIds(ids)));
    expect(directory.withIds(ids)).toHaveLength(4);
    expect(directory.withIds(new Set([-1]))).toEqual([]);
    expect(events).toEqual([]);
    directory.search('mar');
    await directory.indexReady();
    expect(directory.withIds(ids)).toEqual(whole.withIds(ids));
    await directory.close();
  });

  it('identifies callers and lists its contacts before the index is built, as the index does', async () => {
    const events: string[] = [];
    const directory = await cachedDirectory(recorded(events), { buildAfterMs: 60_000 });
    await directory.load();
    const numbers = [0, 77, 1_234, 4_999].flatMap((at) => {
      const digits = contacts[at]!.number.replace(/\D/g, '');
      // As stored, as digits, with another ending digit (the longest common ending), unknown.
      return [contacts[at]!.number, digits, `${digits.slice(0, -1)}9`, '+1 555 0100'];
    });
    for (const number of numbers) {
      expect(directory.lookupByNumber(number), number).toEqual(whole.lookupByNumber(number));
    }
    const ids = (listed: readonly DirectoryContact[]) =>
      listed.map((c) => c.id).sort((a, b) => a - b);
    expect(ids(directory.contacts)).toEqual(ids(whole.contacts));
    expect(events).toEqual([]);
    directory.search('mar');
    await directory.indexReady();
    expect(events.at(-1)).toBe('index built');
    await directory.close();
  });
});
