/**
 * The web preview's --port refuses a port browsers refuse (the Fetch standard's "bad ports"),
 * before anything starts, in the language of the environment.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');

function preview(args: string[], env: Record<string, string>) {
  return spawnSync(
    join(root, 'node_modules/.bin/tsx'),
    ['src-main/preview/preview-program.ts', '--no-open', ...args],
    { cwd: root, encoding: 'utf8', env: { ...process.env, LC_ALL: '', ...env }, timeout: 30_000 },
  );
}

describe('npm run preview -- --port', () => {
  it('refuses a port browsers refuse, saying why and which to take', () => {
    const german = preview(['--port', '10080'], { LANG: 'de_DE.UTF-8' });
    expect(german.status).toBe(2);
    expect(german.stderr).toBe(
      'callbar preview: --port 10080: Webbrowser verbinden sich nicht mit Port 10080 (er steht auf der Liste gesperrter Ports des Fetch-Standards), daher könnte Ihr Browser Callbar dort nicht erreichen; wählen Sie einen anderen Port, etwa 10081.\n',
    );
    const english = preview(['--port', '6000'], { LANG: 'en_US.UTF-8' });
    expect(english.status).toBe(2);
    expect(english.stderr).toContain(
      '--port 6000: web browsers refuse to connect to port 6000 (it is on the Fetch standard',
    );
    expect(english.stdout).toBe('');
  }, 60_000);
});
