/**
 * scripts/setup.sh on a second run: `npm ci` is skipped when node_modules was installed from this
 * very lockfile, and runs again when the lockfile changes; the CLI is built every time. Before
 * anything, it checks the Node that package.json's `engines` asks for; npm's warnings about
 * Electron's own tools (they ask for Node 22) become one sentence, any other warning passes whole.
 * Run in a scratch copy with stand-ins for npm and dpkg-query on PATH (nothing is installed for real).
 */
import { execFileSync, spawnSync } from 'node:child_process';
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
copyFileSync(join(root, 'package.json'), join(scratch, 'checkout/package.json'));
copyFileSync(join(root, '.nvmrc'), join(scratch, 'checkout/.nvmrc'));
copyFileSync(
  join(root, 'scripts/install-notices.mjs'),
  join(scratch, 'checkout/scripts/install-notices.mjs'),
);
script(
  join(scratch, 'checkout/scripts/build-cli.mjs'),
  `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(calls)}, 'build-cli\\n');\n`,
);
/** What npm 11 prints on Node 20 for a package that asks for a newer Node. */
const engineWarning = (spec: string, required: string) =>
  [
    'npm warn EBADENGINE Unsupported engine {',
    `npm warn EBADENGINE   package: '${spec}',`,
    `npm warn EBADENGINE   required: { node: '${required}' },`,
    "npm warn EBADENGINE   current: { node: 'v20.20.2', npm: '11.19.1' }",
    'npm warn EBADENGINE }',
  ].join('\n');
const npmSays = [
  engineWarning('electron@45.5.0', '>= 22.12.0'),
  engineWarning('@electron/get@5.1.0', '>=22.12.0'),
  engineWarning('some-runtime-package@2.0.0', '>=22'),
  engineWarning('node-abi@4.40.0', '>=22.12.0'),
  '',
  'added 665 packages in 20s',
].join('\n');
script(
  join(scratch, 'bin/npm'),
  `#!/bin/sh\necho "npm $*" >> ${calls}\nmkdir -p node_modules\ncat >&2 <<'EOF'\n${npmSays}\nEOF\n`,
);
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

  it("says Electron's tools' engine warnings in one sentence and passes any other whole", () => {
    appendFileSync(join(scratch, 'checkout/package-lock.json'), '\n');
    const { output } = setup();
    expect(output).not.toContain("package: 'electron@45.5.0'");
    expect(output).not.toContain("package: '@electron/get@5.1.0'");
    expect(output).not.toContain("package: 'node-abi@4.40.0'");
    expect(output).toContain(engineWarning('some-runtime-package@2.0.0', '>=22'));
    expect(output).toContain(
      "note: Electron's own tools (electron 45.5.0, @electron/get 5.1.0, node-abi 4.40.0) ask for Node >=22.12.0:",
    );
    expect(output).toContain('added 665 packages in 20s');
    expect(output.match(/EBADENGINE/g)).toHaveLength(5);
  });

  it('stops before installing anything when Node is older than package.json asks', () => {
    const packageJson = join(scratch, 'checkout/package.json');
    const real = readFileSync(packageJson, 'utf8');
    writeFileSync(packageJson, real.replace(/"node": ">=[0-9.]+"/, '"node": ">=99.1.0"'));
    try {
      rmSync(calls, { force: true });
      const run = spawnSync('bash', ['scripts/setup.sh'], {
        cwd: join(scratch, 'checkout'),
        env: { ...process.env, PATH: `${join(scratch, 'bin')}:${process.env.PATH}` },
        encoding: 'utf8',
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `Callbar needs Node.js 99.1.0 or newer; this is ${process.version}.`,
      );
      expect(run.stderr).toContain('`nvm install`, which reads .nvmrc');
      expect(existsSync(calls)).toBe(false);
    } finally {
      writeFileSync(packageJson, real);
    }
  });
});
