/**
 * The directory cache shared by the processes of one profile (the app, the CLI, a second
 * window's core): one process replaces `directory.bin` again and again while this one reads it.
 * Every read is a whole snapshot, the old one or the new one (the write goes to a temporary file
 * renamed over the cache; the read holds the file it opened), never a torn one: a torn file would
 * be refused (its checksum) and deleted, and the read would say "discarded" or "missing".
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, it } from 'vitest';
import { readCacheFile } from '../../../../src-main/core/directory/directory-cache';

const writer = join(import.meta.dirname, '../../../support/cache-writer.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'callbar-cache-processes-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('reads a whole snapshot, old or new, while another process rewrites it', async () => {
  const sizes = [3_000, 2_000];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', writer, dataDir, '60', ...sizes.map(String)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  expect((await lines.next()).value).toBe('{"writing":true}');
  let writing = true;
  const done = lines.next().then(() => (writing = false));
  const seen: string[] = [];
  while (writing) {
    const read = await readCacheFile(dataDir);
    if (read.status === 'missing') {
      // Before the writer's first rename: nothing there yet (never after one, checked below).
      expect(seen).toEqual([]);
      continue;
    }
    if (read.status !== 'ok') throw new Error(`a read was ${read.status}: ${read.reason}`);
    const { contacts, texts } = read.cache;
    expect(sizes).toContain(contacts.length);
    // Whole: the last contact is there, and the search texts are those of the same contacts.
    expect(contacts.at(contacts.length - 1).id).toBeGreaterThan(0);
    expect(texts?.names.ends.length).toBe(contacts.length);
    seen.push(`${contacts.length}`);
  }
  await done;
  expect(await exited).toBe(0);
  // Reads happened while it wrote, and the last write is what is there now.
  expect(seen.length).toBeGreaterThan(0);
  const last = await readCacheFile(dataDir);
  expect(last.status === 'ok' && last.cache.contacts.length).toBe(sizes[1]);
});
