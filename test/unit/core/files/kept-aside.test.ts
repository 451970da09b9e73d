/**
 * A profile file Callbar cannot use is set aside only while it still is what the reader found:
 * two processes finding the same file at once, the second must not move the new file the first
 * wrote after setting the old one aside.
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepNewestAside, setAsideIfStill } from '../../../../src-main/core/files/kept-aside';

function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'callbar-aside-'));
  return { dir, file: join(dir, 'state.json'), aside: join(dir, 'state.json.unreadable') };
}

describe('setAsideIfStill', () => {
  it('moves the text it found; not a file another process wrote meanwhile', () => {
    const { file, aside } = scratch();
    writeFileSync(file, '{"broken"');
    expect(setAsideIfStill(file, '{"broken"', aside, 1024)).toBe(true);
    expect(readFileSync(aside, 'utf8')).toBe('{"broken"');
    expect(existsSync(file)).toBe(false);

    // The second process read the same broken text; the first has since written a new file.
    writeFileSync(file, '{"version":1}');
    expect(setAsideIfStill(file, '{"broken"', aside, 1024)).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('{"version":1}');
    expect(readFileSync(aside, 'utf8')).toBe('{"broken"');
    // ... or the first set it aside and nothing is there yet.
    expect(setAsideIfStill(`${file}.none`, '{"broken"', aside, 1024)).toBe(false);
  });

  it('moves a file it could not read while it still cannot be read; not a readable new one', () => {
    const { file, aside } = scratch();
    writeFileSync(file, 'x'.repeat(2048));
    expect(setAsideIfStill(file, undefined, aside, 1024)).toBe(true);
    expect(readFileSync(aside, 'utf8')).toHaveLength(2048);

    writeFileSync(file, '{"version":1}');
    expect(setAsideIfStill(file, undefined, aside, 1024)).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('{"version":1}');
  });

  it('never moves a link, nor reads what it points to', () => {
    const { dir, file, aside } = scratch();
    writeFileSync(join(dir, 'target'), 'x'.repeat(2048));
    symlinkSync(join(dir, 'target'), file);
    expect(setAsideIfStill(file, undefined, aside, 1024)).toBe(false);
    expect(existsSync(aside)).toBe(false);
  });
});

describe('keepNewestAside', () => {
  it('keeps the newest copies by the time in their name, and nothing else is touched', () => {
    const { dir, file } = scratch();
    for (const time of [5, 100, 20, 3, 1000]) writeFileSync(`${file}.damaged-${time}`, '');
    writeFileSync(`${file}.damaged-note`, '');
    writeFileSync(file, '');
    keepNewestAside(file, '.damaged-', 3);
    expect(readdirSync(dir).sort()).toEqual([
      'state.json',
      'state.json.damaged-100',
      'state.json.damaged-1000',
      'state.json.damaged-20',
      'state.json.damaged-note',
    ]);
  });
});
