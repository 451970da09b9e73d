/**
 * Whoever can plant a symbolic link in the profile must not make Callbar write into another file,
 * nor read an endless or huge one; a profile folder of another user is refused, one open to others
 * is closed. Real `callbar` processes and the real profile code on real files.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { profileSessionLock } from '../../src-main/core/account/session-lock';
import { CallLogFile } from '../../src-main/core/calls/call-log';
import { fileFormat } from '../../src-main/core/config/file-format';
import { loadSettings } from '../../src-main/core/config/settings-store';
import { profileStateFile } from '../../src-main/core/config/state-file';
import { readCache } from '../../src-main/core/directory/directory-cache';
import { CallbarError } from '../../src-main/core/errors';
import { openProfile } from '../../src-main/core/profile';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import { z } from 'zod';
import { runCallbar } from '../support/cli-process';
import { UNREACHABLE_KEYCHAIN } from '../support/e2e-app';
import { capturingLogger } from '../support/sim-harness';
import { recordFigure } from '../support/hardening/figures';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): { profile: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'callbar-links-'));
  dirs.push(root);
  const profile = join(root, 'profile');
  const outside = join(root, 'outside');
  mkdirSync(profile, { mode: 0o700 });
  mkdirSync(outside);
  return { profile, outside };
}

/** A file of someone else's that a link in the profile points at, and its untouched content. */
function victim(outside: string, name: string): { path: string; content: string } {
  const path = join(outside, name);
  const content = `precious ${name}\n`;
  writeFileSync(path, content);
  return { path, content };
}

describe('symbolic links planted in the profile', () => {
  it('the log, its folder and the session lock holder are never written through a link', async () => {
    const { profile, outside } = scratch();
    const bashrc = victim(outside, 'bashrc');
    const holderVictim = victim(outside, 'authorized_keys');
    mkdirSync(join(profile, 'logs'), { mode: 0o700 });
    symlinkSync(bashrc.path, join(profile, 'logs', 'callbar.log'));
    symlinkSync(holderVictim.path, join(profile, 'session.lock.holder'));

    // A real `callbar` process: with the keychain unreachable, `status` logs a warning.
    const run = await runCallbar(['status'], {
      ...UNREACHABLE_KEYCHAIN,
      CALLBAR_DATA_DIR: profile,
    });
    expect(run.stdout).toContain('keychain is not available');
    // The profile's own code holding the session lock (it records its holder beside the lock).
    await profileSessionLock(profile, { log: capturingLogger().log }).hold(() => Promise.resolve());

    expect(readFileSync(bashrc.path, 'utf8')).toBe(bashrc.content);
    expect(readFileSync(holderVictim.path, 'utf8')).toBe(holderVictim.content);
    const logFile = join(profile, 'logs', 'callbar.log');
    expect(lstatSync(logFile).isSymbolicLink()).toBe(false);
    expect(readFileSync(logFile, 'utf8')).toContain('the keychain is unavailable');
    expect(statSync(logFile).mode & 0o777).toBe(0o600);

    // The whole logs folder replaced by a link to another folder.
    rmSync(join(profile, 'logs'), { recursive: true });
    symlinkSync(outside, join(profile, 'logs'));
    await runCallbar(['status'], { ...UNREACHABLE_KEYCHAIN, CALLBAR_DATA_DIR: profile });
    expect(existsSync(join(outside, 'callbar.log'))).toBe(false);
    expect(lstatSync(join(profile, 'logs')).isDirectory()).toBe(true);
    recordFigure(
      'Profile: links planted at logs/callbar.log, logs/ and session.lock.holder',
      'real `callbar status` and the session lock: 0 bytes written outside the profile; each link replaced by Callbar’s own file or folder',
    );
  });

  it('profile files that are links, FIFOs or huge are refused unread, with a sentence naming them', async () => {
    const { profile } = scratch();
    const { log, lines } = capturingLogger();
    // An endless "file": calls.json, directory.bin and directory.json pointing at /dev/zero.
    symlinkSync('/dev/zero', join(profile, 'calls.json'));
    symlinkSync('/dev/zero', join(profile, 'directory.bin'));
    symlinkSync('/dev/zero', join(profile, 'directory.json'));
    expect(new CallLogFile(profile, log).read().calls).toEqual([]);
    expect(lines.join('\n')).toContain('symbolic link');
    const cache = await readCache(profile, {
      tenant_id: 'acme',
      user_extension: '201',
      base_url: 'sim',
    });
    expect(cache.status).toBe('discarded');
    expect(cache.status === 'discarded' && cache.reason).toContain('symbolic link');
    // directory.json, an older format's file, is read when there is no directory.bin: the same.
    rmSync(join(profile, 'directory.bin'));
    const legacy = await readCache(profile, {
      tenant_id: 'acme',
      user_extension: '201',
      base_url: 'sim',
    });
    expect(legacy.status === 'discarded' && legacy.reason).toContain('symbolic link');

    // settings.json as a 2 MB file: a clear error, the file left as it is.
    writeFileSync(join(profile, 'settings.json'), `{"region": "${'G'.repeat(2_000_000)}"}`);
    const settingsError = (() => {
      try {
        loadSettings({ dataDir: profile, env: {} });
      } catch (error) {
        return error;
      }
    })();
    expect(settingsError).toBeInstanceOf(CallbarError);
    expect((settingsError as CallbarError).code).toBe('settings_unreadable');
    expect((settingsError as CallbarError).message).toMatch(/settings\.json.*more than/);

    // A state file that is a link is treated as absent (and said so in the log).
    const target = join(profile, 'elsewhere.json');
    writeFileSync(target, '{"a":1}');
    symlinkSync(target, join(profile, 'state.json'));
    const state = profileStateFile(
      join(profile, 'state.json'),
      fileFormat({ version: 1, content: z.object({ a: z.number() }) }),
      log,
      'x',
    );
    expect(await state.read()).toBeUndefined();
    recordFigure(
      'Profile: calls.json, directory.bin and directory.json linked to /dev/zero, a 2 MB settings.json',
      'refused unread, each with a sentence naming the file; the call log and cache start empty',
    );
  });
});

describe('the profile folder is checked at start', () => {
  it('a CALLBAR_DATA_DIR that is a file, or under one, is said in a sentence (before: "EEXIST: file already exists, mkdir …")', async () => {
    const { outside } = scratch();
    const file = join(outside, 'profile.txt');
    writeFileSync(file, 'mine\n');
    const onFile = await runCallbar(['status'], {
      ...UNREACHABLE_KEYCHAIN,
      CALLBAR_DATA_DIR: file,
    });
    expect(onFile.code).toBe(1);
    expect(onFile.stderr).toBe(
      `callbar: Callbar's profile ${file} is not a folder. Move that file away, or set CALLBAR_DATA_DIR to a folder of your own.\n`,
    );
    const under = join(file, 'callbar');
    const underFile = await runCallbar(['search', 'x'], {
      ...UNREACHABLE_KEYCHAIN,
      CALLBAR_DATA_DIR: under,
      LANG: 'de_DE.UTF-8',
    });
    expect(underFile.code).toBe(1);
    expect(underFile.stderr).toBe(
      `callbar: Callbar konnte seinen Profilordner ${under} nicht anlegen (ENOTDIR). Setzen Sie CALLBAR_DATA_DIR auf einen eigenen Ordner.\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('mine\n');
  });

  it('a folder open to others is closed to 0700; one of another user is refused', () => {
    const { profile } = scratch();
    chmodSync(profile, 0o777);
    const { log, lines } = capturingLogger();
    const opened = openProfile({
      env: { CALLBAR_DATA_DIR: profile },
      vault: new MemoryVault(),
      log,
    });
    void opened.close();
    expect(statSync(profile).mode & 0o777).toBe(0o700);
    expect(lines.join('\n')).toContain('open to other users');

    if (process.getuid?.() !== 0) return; // chown to another user needs root (CI runs as root)
    chownSync(profile, 65534, 65534);
    let refused: unknown;
    try {
      openProfile({ env: { CALLBAR_DATA_DIR: profile }, vault: new MemoryVault(), log });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(CallbarError);
    expect((refused as CallbarError).code).toBe('profile_unsafe');
    expect((refused as CallbarError).message).toContain('belongs to another user');
    recordFigure(
      'Profile folder',
      '0777 closed to 0700 at start (logged); a folder of another user refused (profile_unsafe)',
    );
  });
});
