import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enableProfileCompileCache } from '../../../../src-main/core/files/compile-cache';

/**
 * The web preview's V8 code cache (issue 45): code the next start runs, so it is turned on only
 * in a profile folder nobody else may write, in a real folder of Callbar's own. The runtime's
 * enabler is recorded (Node 20, which runs this suite, has none).
 */
let root: string;
let asked: string[];
const enable = (directory: string) => asked.push(directory);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'callbar-compile-cache-'));
  asked = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('enableProfileCompileCache', () => {
  it('turns the cache on in compile-cache/ (0700) of a profile closed to others', () => {
    const profile = join(root, 'Callbar');
    mkdirSync(profile, { mode: 0o700 });
    expect(enableProfileCompileCache(profile, enable)).toBe(true);
    expect(asked).toEqual([join(profile, 'compile-cache')]);
    const folder = lstatSync(join(profile, 'compile-cache'));
    expect(folder.isDirectory()).toBe(true);
    expect(folder.mode & 0o777).toBe(0o700);
  });

  it('makes no profile and turns nothing on before a first start made one', () => {
    expect(enableProfileCompileCache(join(root, 'Callbar'), enable)).toBe(false);
    expect(asked).toEqual([]);
    expect(readdirSync(root)).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('turns nothing on in a profile others may write', () => {
    const profile = join(root, 'Callbar');
    mkdirSync(profile);
    chmodSync(profile, 0o777);
    expect(enableProfileCompileCache(profile, enable)).toBe(false);
    expect(asked).toEqual([]);
    expect(readdirSync(profile)).toEqual([]);
  });

  it('replaces a link planted as compile-cache/ by a real folder; its target stays empty', () => {
    const profile = join(root, 'Callbar');
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(profile, { mode: 0o700 });
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(profile, 'compile-cache'));
    expect(enableProfileCompileCache(profile, enable)).toBe(true);
    expect(lstatSync(join(profile, 'compile-cache')).isSymbolicLink()).toBe(false);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('does nothing where the runtime has no code cache (Node 20)', () => {
    const profile = join(root, 'Callbar');
    mkdirSync(profile, { mode: 0o700 });
    expect(enableProfileCompileCache(profile, undefined)).toBe(false);
    expect(readdirSync(profile)).toEqual([]);
  });
});
