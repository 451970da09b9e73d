import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { profileCodeCacheFolder } from '../../../../src-main/core/files/code-cache';

/**
 * The web preview's V8 code cache (issue 45): a CommonJS program run with a cache made after it
 * ran. The cache is code the next start runs, so it is kept only in a profile folder nobody else
 * may write, in a real folder of Callbar's own, and never read for another build of the program.
 */
let root: string;
let profile: string;
let program: string;
/** The module built for Node, and a runner of it: each run is a process of its own, as a start
 * is (in one process, V8 would take what it compiled in memory and never read the cache). */
let runner: string;

beforeAll(async () => {
  runner = join(mkdtempSync(join(tmpdir(), 'callbar-code-cache-runner-')), 'runner.mjs');
  await build({
    stdin: {
      contents: `import { runWithCodeCache } from './src-main/core/files/code-cache';
        globalThis.codeCacheRuns = [];
        const { cacheFile, usedCache, save } = runWithCodeCache(process.argv[2], process.argv[3]);
        save();
        console.log(JSON.stringify({ cacheFile, usedCache, runs: globalThis.codeCacheRuns }));`,
      resolveDir: join(import.meta.dirname, '../../../..'),
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: runner,
    logLevel: 'silent',
  });
}, 60_000);
afterAll(() => rmSync(join(runner, '..'), { recursive: true, force: true }));

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'callbar-code-cache-'));
  profile = join(root, 'Callbar');
  program = join(root, 'program.cjs');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A program whose source is unique to this test (V8 also caches what it compiled in memory). */
function writeProgram(answer: number): void {
  writeFileSync(
    program,
    `const { join } = require('node:path');
     function answer() { return ${answer} + ${Math.random().toFixed(12)} * 0; }
     module.exports.answer = answer;
     globalThis.codeCacheRuns.push({ answer: answer(), file: __filename, dir: __dirname,
       joined: join('a', 'b'), exportsIsModules: exports === module.exports });`,
  );
}

const cacheFiles = () => readdirSync(join(profile, 'compile-cache'));

describe('profileCodeCacheFolder', () => {
  it('is compile-cache/ (0700) of a profile closed to others', () => {
    mkdirSync(profile, { mode: 0o700 });
    expect(profileCodeCacheFolder(profile)).toBe(join(profile, 'compile-cache'));
    const folder = lstatSync(join(profile, 'compile-cache'));
    expect(folder.isDirectory()).toBe(true);
    expect(folder.mode & 0o777).toBe(0o700);
  });

  it('makes no profile before a first start made one', () => {
    expect(profileCodeCacheFolder(profile)).toBeUndefined();
    expect(readdirSync(root)).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('is none in a profile others may write', () => {
    mkdirSync(profile);
    chmodSync(profile, 0o777);
    expect(profileCodeCacheFolder(profile)).toBeUndefined();
    expect(readdirSync(profile)).toEqual([]);
  });

  it('replaces a link planted as compile-cache/ by a real folder; its target stays empty', () => {
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(profile, { mode: 0o700 });
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(profile, 'compile-cache'));
    expect(profileCodeCacheFolder(profile)).toBe(join(profile, 'compile-cache'));
    expect(lstatSync(join(profile, 'compile-cache')).isSymbolicLink()).toBe(false);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

/** One start of the program in a process of its own: what it did, and what the program saw. */
function run(): { cacheFile?: string; usedCache: boolean; runs: { answer: number }[] } {
  const child = spawnSync(process.execPath, [runner, program, profile], { encoding: 'utf8' });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as ReturnType<typeof run>;
}

describe('runWithCodeCache', () => {
  it('runs the program as Node requires a CommonJS file', () => {
    mkdirSync(profile, { mode: 0o700 });
    writeProgram(42);
    expect(run().runs).toEqual([
      { answer: 42, file: program, dir: root, joined: join('a', 'b'), exportsIsModules: true },
    ]);
  });

  it('writes a cache (0600) once the program ran, and the next start reads it', () => {
    mkdirSync(profile, { mode: 0o700 });
    writeProgram(1);
    const first = run();
    expect(first.usedCache).toBe(false);
    expect(cacheFiles()).toHaveLength(1);
    expect(lstatSync(first.cacheFile!).mode & 0o777).toBe(0o600);
    const written = lstatSync(first.cacheFile!).ino;
    const second = run();
    expect(second).toEqual({ ...first, usedCache: true });
    // Nothing written again: the cache it read stays.
    expect(lstatSync(first.cacheFile!).ino).toBe(written);
  });

  it('never reads the cache of another build, and removes it when it writes its own', () => {
    mkdirSync(profile, { mode: 0o700 });
    writeProgram(1);
    const before = run();
    writeProgram(2); // the same length: V8's own check would take the old cache
    const after = run();
    expect(after.cacheFile).not.toBe(before.cacheFile);
    expect(after.usedCache).toBe(false);
    expect(after.runs).toMatchObject([{ answer: 2 }]);
    expect(cacheFiles()).toEqual([after.cacheFile!.replace(/.*[\\/]/, '')]);
  });

  it('runs a program whose cache is damaged, and writes a good one', () => {
    mkdirSync(profile, { mode: 0o700 });
    writeProgram(7);
    const { cacheFile } = run();
    const damage = Buffer.alloc(readFileSync(cacheFile!).length, 0x5a);
    writeFileSync(cacheFile!, damage);
    const damaged = run();
    expect(damaged).toMatchObject({ usedCache: false, runs: [{ answer: 7 }] });
    expect(readFileSync(cacheFile!).equals(damage)).toBe(false);
    expect(run().usedCache).toBe(true);
  });

  it('never follows a link planted as the cache, and writes a cache of its own in its place', () => {
    mkdirSync(profile, { mode: 0o700 });
    writeProgram(5);
    const { cacheFile } = run();
    // The link leads to a good cache of this very program: it is still not read.
    const elsewhere = join(root, 'elsewhere.v8');
    writeFileSync(elsewhere, readFileSync(cacheFile!));
    rmSync(cacheFile!);
    symlinkSync(elsewhere, cacheFile!);
    expect(run()).toMatchObject({ usedCache: false, runs: [{ answer: 5 }] });
    expect(lstatSync(cacheFile!).isSymbolicLink()).toBe(false);
    expect(run().usedCache).toBe(true);
  });

  it('runs without a cache where there is no profile yet, and writes nothing', () => {
    writeProgram(3);
    const started = run();
    expect(started).toMatchObject({ usedCache: false, runs: [{ answer: 3 }] });
    expect(started.cacheFile).toBeUndefined();
    expect(readdirSync(root)).toEqual(['program.cjs']);
  });
});
