/**
 * The link door on its own: a real Unix socket in a throwaway profile folder, knocked on by the
 * same client `callbar open-url` and the native host use, and by a raw socket that does not play
 * by the rules (no key, a wrong key, an endless line, a flood).
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLinkDoor, type LinkDoor } from '../../../../src-main/core/desktop/link-door';
import { knockLinkDoor, linkDoorAnswers } from '../../../../src-main/core/desktop/link-door-knock';
import { doorFilePath, type DoorAnswer } from '../../../../src-main/core/desktop/link-door-format';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { capturingLogger } from '../../../support/sim-harness';

/** Sends `text` on a raw connection to the door at `address` (then ends it, with `end`); what comes back. */
function raw(address: string, text: string | Buffer, { end = false } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(address, () => (end ? socket.end(text) : socket.write(text)));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the link door', () => {
  let dataDir: string;
  let door: LinkDoor;
  let clock = 0;
  const delivered: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-door-'));
    door = await openLinkDoor({
      dataDir,
      log: silentLogger,
      now: () => clock,
      deliver: (link) => {
        delivered.push(link);
        return Promise.resolve<DoorAnswer>({
          ok: true,
          status: 'asking',
          display: '+1 900 555 0100',
        });
      },
    });
  });
  afterAll(() => door.close());

  it('writes a door file only the user can read, naming a socket in the profile', () => {
    const file = doorFilePath(dataDir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const content = JSON.parse(readFileSync(file, 'utf8')) as { address: string; key: string };
    expect(content.address).toBe(join(dataDir, 'link-door.sock'));
    expect(content.key.length).toBeGreaterThanOrEqual(43);
  });

  it('hands a knock with the key to the running Callbar and brings back its answer', async () => {
    const answer = await knockLinkDoor(dataDir, 'tel:+19005550100');
    expect(answer).toEqual({ ok: true, status: 'asking', display: '+1 900 555 0100' });
    expect(delivered.at(-1)).toBe('tel:+19005550100');
  });

  it('does not knock with a link the door would refuse unread: the caller reads it and says why', async () => {
    const before = delivered.length;
    for (const link of [`tel:+1${'2'.repeat(600)}`, 'tel:+1202555\u00070188', '']) {
      expect(await knockLinkDoor(dataDir, link)).toBeUndefined();
    }
    expect(delivered.length).toBe(before);
  });

  it('refuses a knock without the right key, and one that is not one line of JSON', async () => {
    const count = delivered.length;
    const wrong = JSON.parse(
      await raw(door.address, JSON.stringify({ key: 'x'.repeat(43), link: 'tel:+1' }) + '\n'),
    ) as DoorAnswer;
    expect(wrong).toMatchObject({ ok: false, error: { code: 'door_refused' } });
    expect(wrong.ok ? '' : wrong.error.message).toBe(
      'Callbar refused a link from a program that is not allowed to hand it links.',
    );
    const noKey = JSON.parse(await raw(door.address, '{"link":"tel:+1"}\n')) as DoorAnswer;
    expect(noKey).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    // A line that never ends is cut at 4 KiB, not read into memory without end.
    const endless = JSON.parse(await raw(door.address, Buffer.alloc(64 * 1024, 'a'))) as DoorAnswer;
    expect(endless).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    // A control character in the link (a forged log line) is refused before anything opens it.
    const key = (JSON.parse(readFileSync(doorFilePath(dataDir), 'utf8')) as { key: string }).key;
    const forged = JSON.parse(
      await raw(door.address, JSON.stringify({ key, link: 'tel:+1\nforged' }) + '\n'),
    ) as DoorAnswer;
    expect(forged).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(delivered.length).toBe(count);
  });

  it('takes a burst of knocks, then refuses the flood at once until time passes', async () => {
    clock += 60_000;
    const answers = await Promise.all(
      Array.from({ length: 14 }, async () => {
        try {
          return await knockLinkDoor(dataDir, 'tel:+19005550100');
        } catch {
          return undefined; // beyond the door's 4 connections at a time, refused by the kernel
        }
      }),
    );
    const busy = answers.filter((each) => each?.ok === false && each.error.code === 'busy');
    const taken = answers.filter((each) => each?.ok === true);
    expect(taken.length).toBeLessThanOrEqual(10);
    expect(busy.length + answers.filter((each) => each === undefined).length).toBeGreaterThan(0);
    clock += 2000;
    expect(await knockLinkDoor(dataDir, 'tel:+19005550100')).toMatchObject({ ok: true });
  });
});

describe('no running Callbar', () => {
  it('no door file, or one left by a Callbar that did not close: the knock finds nobody', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-door-'));
    expect(await knockLinkDoor(dataDir, 'tel:+1')).toBeUndefined();
    const door = await openLinkDoor({
      dataDir,
      log: silentLogger,
      deliver: () => Promise.resolve<DoorAnswer>({ ok: true, status: 'dialing', display: '1' }),
    });
    const file = readFileSync(doorFilePath(dataDir), 'utf8');
    await door.close();
    // Closing removed its file; a crash would have left it: put it back.
    writeFileSync(doorFilePath(dataDir), file, { mode: 0o600 });
    expect(await knockLinkDoor(dataDir, 'tel:+1')).toBeUndefined();
  });

  it('whether Callbar runs: asked without a knock, the door answers nothing and logs nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-door-'));
    expect(await linkDoorAnswers(dataDir)).toBe(false);
    const { log, lines } = capturingLogger();
    const door = await openLinkDoor({
      dataDir,
      log,
      deliver: () => Promise.resolve<DoorAnswer>({ ok: true, status: 'dialing', display: '1' }),
    });
    const file = readFileSync(doorFilePath(dataDir), 'utf8');
    const opened = lines.length;
    expect(await linkDoorAnswers(dataDir)).toBe(true);
    // A connection ended with nothing sent (as linkDoorAnswers' is) is closed without an answer.
    expect(await raw(door.address, '', { end: true })).toBe('');
    expect(lines.slice(opened)).toEqual([]);
    await door.close();
    writeFileSync(doorFilePath(dataDir), file, { mode: 0o600 });
    expect(await linkDoorAnswers(dataDir)).toBe(false);
  });
});
