/**
 * scripts/setup.sh on a second run: `npm ci` is skipped when node_modules was installed from this
 * very lockfile, and runs again when the lockfile changes; the CLI is built every time. Run in a
 * scratch copy with stand-ins for npm and dpkg-query on PATH (nothing is installed for real).
 */
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'callbar-setup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function script(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

const calls = join(scratch, 'calls.log');
mkdirSync(join(scratch, 'checkout/scripts'), { recursive: true });
copyFileSync(join(root, 'scripts/setup.sh'), join(scratch, 'checkout/scripts/setup.sh'));
copyFileSync(join(root, 'package-lock.json'), join(scratch, 'checkout/package-lock.json'));
script(
  join(scratch, 'checkout/scripts/build-cli.mjs'),
  `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(calls)}, 'build-cli\\n');\n`,
);
script(join(scratch, 'bin/npm'), `#!/bin/sh\necho "npm $*" >> ${calls}\nmkdir -p node_modules\n`);
script(join(scratch, 'bin/dpkg-query'), '#!/bin/sh\necho "install ok installed"\n');

function setup(): { output: string; calls: string[] } {
  rmSync(calls, { force: true });
  const output = execFileSync('bash', ['scripts/setup.sh'], {
    cwd: join(scratch, 'checkout'),
    env: {
      ...process.env,
      PATH: `${join(scratch, 'bin')}:${process.env.PATH}`,
      ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
    },
    encoding: 'utf8',
  });
  return { output, calls: existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : [] };
}

describe('scripts/setup.sh', () => {
  it('installs on the first run, skips npm ci on the next, installs again after a lockfile change', () => {
    const first = setup();
    expect(first.calls).toEqual(['npm ci --no-audit --no-fund', 'build-cli']);

    const second = setup();
    expect(second.calls).toEqual(['build-cli']);
    expect(second.output).toContain('npm ci: skipped, node_modules matches package-lock.json');

    appendFileSync(join(scratch, 'checkout/package-lock.json'), '\n');
    const third = setup();
    expect(third.calls).toEqual(['npm ci --no-audit --no-fund', 'build-cli']);
  });
});
