/**
 * `scripts/with-keyring.sh` on a machine without a D-Bus session (CI, containers): the keyring it
 * starts lives in a throwaway folder, removed on exit; the user's own keyrings are never created
 * or touched. Run with a fake HOME, as a fresh user's would be.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../../support/files-under';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('with-keyring.sh', () => {
  it('gives the keychain a private, temporary keyring and leaves nothing in HOME', () => {
    const home = mkdtempSync(join(tmpdir(), 'callbar-home-'));
    try {
      // Stores and reads back a secret through the real keychain library, and reports where the
      // keyring folder was.
      const script = `
        const keytar = require('keytar');
        (async () => {
          await keytar.setPassword('Callbar-keyring-test', 'probe', 'stored-secret');
          const back = await keytar.getPassword('Callbar-keyring-test', 'probe');
          console.log(JSON.stringify({ back, folder: process.env.CALLBAR_PRIVATE_DBUS }));
        })().catch((error) => { console.error(error); process.exit(1); });`;
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
      for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'CALLBAR_PRIVATE_DBUS', 'XDG_DATA_HOME']) {
        delete env[name];
      }
      const run = spawnSync('bash', ['scripts/with-keyring.sh', process.execPath, '-e', script], {
        cwd: root,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(0);
      const { back, folder } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
        back: string;
        folder: string;
      };
      expect(back).toBe('stored-secret');
      expect(folder.startsWith(home)).toBe(false);
      expect(existsSync(folder)).toBe(false);
      expect(existsSync(join(home, '.local/share/keyrings'))).toBe(false);
      expect(filesAfterDaemon(home).filter((file) => /keyring|keystore/i.test(file))).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 90_000);
});

/**
 * The files under `home` once the keyring daemon the script started is done with it: a listing
 * that meets a folder vanishing under it (the daemon removing its own as it ends, just after the
 * script exited) is made again, a few times at most.
 */
function filesAfterDaemon(home: string): string[] {
  for (let attempt = 1; ; attempt++) {
    try {
      return filesUnder(home);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 20) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}
