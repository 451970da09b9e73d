/**
 * How fast the `callbar` CLI starts, against `node -e 0` on the same machine and in the same run
 * (the target: `--version` and `status` when not connected, median ≤ 3× node -e 0). Also
 * the way it used to start, compiling the TypeScript through tsx on every run. Runs are
 * interleaved so a machine that gets busier mid-run slows every variant alike.
 *
 * Then a signed-in command, `callbar phonebooks list --json` against the simulator (the keychain
 * of scripts/with-keyring.sh): as it ships, and as it was before the CLI kept undici's HTTP parser
 * on Liftoff (src-main/cli/main.ts), when V8 optimized that WebAssembly with TurboFan on a worker
 * thread and the process waited for it before it could exit. Each run's life, and its CPU (user +
 * system, as bash's `times` reports it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../simulator/index';
import { openVault } from '../src-main/core/vault/keytar-vault';
import { freePort } from '../test/support/free-port';
import { issuedSession } from '../test/support/issued-session';
import { profileEnv } from '../test/support/profile-env';

const root = join(import.meta.dirname, '..');
const node = process.execPath;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function cliStartup(rounds = 15): Promise<void> {
  const built = spawnSync(node, [join(root, 'scripts/build-cli.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('The CLI build failed.');
  const dataDir = mkdtempSync(join(tmpdir(), 'callbar-bench-'));
  const env = { ...process.env, CALLBAR_DATA_DIR: dataDir };
  const bin = join(root, 'bin/callbar.mjs');
  const variants: { name: string; args: string[]; expectExit: number }[] = [
    { name: 'node -e 0', args: ['-e', '0'], expectExit: 0 },
    { name: 'callbar --version', args: [bin, '--version'], expectExit: 0 },
    { name: 'callbar status (not connected)', args: [bin, 'status'], expectExit: 3 },
    {
      name: 'tsx src-main/cli/main.ts --version (before: compiled per run)',
      args: [
        join(root, 'node_modules/tsx/dist/cli.mjs'),
        join(root, 'src-main/cli/main.ts'),
        '--version',
      ],
      expectExit: 0,
    },
  ];
  const times = variants.map(() => [] as number[]);
  try {
    for (let round = 0; round <= rounds; round++) {
      variants.forEach((variant, index) => {
        const start = process.hrtime.bigint();
        const run = spawnSync(node, variant.args, { cwd: root, env, encoding: 'utf8' });
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (run.status !== variant.expectExit) {
          throw new Error(`${variant.name} exited ${run.status}: ${run.stderr || run.stdout}`);
        }
        if (round > 0) times[index]!.push(ms); // round 0 warms the file cache
      });
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const baseline = median(times[0]!);
  console.log(`median of ${rounds} interleaved runs each; ratio to node -e 0`);
  variants.forEach((variant, index) => {
    const ms = median(times[index]!);
    console.log(
      `  ${variant.name.padEnd(62)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / baseline).toFixed(2)}×`,
    );
  });
  return signedInCommand(rounds);
}

/** `3m1.5s` (bash's `times`) in ms. */
function timesMs(text: string): number {
  const [, minutes, seconds] = /(\d+)m([\d.]+)s/.exec(text) ?? [];
  return (Number(minutes) * 60 + Number(seconds)) * 1000;
}

/**
 * One run of `node ARGS` to its end, started by bash, whose `times` then says the CPU (user +
 * system) its child used: the run's life in ms (bash's own start, a few ms, included alike in
 * every variant) and that CPU.
 */
function timedRun(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ ms: number; cpu: number }>((resolve, reject) => {
    const start = performance.now();
    const script = `"${node}" "$@" >/dev/null; status=$?; times >&2; exit $status`;
    const child = spawn('bash', ['-c', script, 'bash', ...args], { cwd: root, env });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      const ms = performance.now() - start;
      // The second line of `times`: the user and system time of the shell's children.
      const children = stderr.trim().split('\n').at(-1)!.split(' ');
      if (code !== 0) reject(new Error(`callbar exited ${code}: ${stderr}`));
      else resolve({ ms, cpu: timesMs(children[0]!) + timesMs(children[1]!) });
    });
  });
}

async function signedInCommand(rounds: number): Promise<void> {
  const sim = await startSimulator({ contacts: 20, autoAnswer: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'callbar-bench-'));
  const env = { ...process.env, ...profileEnv(sim, dataDir, await freePort()) };
  const vault = openVault({ dataDir });
  // Before: the same bundle, with the CLI's V8 flag left unset (V8's defaults: TurboFan tier-up).
  const before = join(dataDir, 'turbofan-tier-up.mjs');
  writeFileSync(
    before,
    [
      "import v8 from 'node:v8';",
      "import { syncBuiltinESMExports } from 'node:module';",
      'v8.setFlagsFromString = () => undefined;',
      'syncBuiltinESMExports();',
      `await import(${JSON.stringify(join(root, 'out/cli/callbar.js'))});`,
    ].join('\n'),
  );
  try {
    await vault.save(await issuedSession(sim, sim.users[0]!, Date.now() + 24 * 3600_000));
    const command = ['phonebooks', 'list', '--json'];
    const signedIn = [
      {
        name: 'callbar phonebooks list --json (Liftoff only, as shipped)',
        args: [join(root, 'bin/callbar.mjs'), ...command],
      },
      { name: 'the same, V8 optimizing the HTTP parser (before)', args: [before, ...command] },
    ];
    const runs = signedIn.map(() => [] as { ms: number; cpu: number }[]);
    for (let round = 0; round <= rounds; round++) {
      for (const [index, variant] of signedIn.entries()) {
        const run = await timedRun(variant.args, env);
        if (round > 0) runs[index]!.push(run);
      }
    }
    console.log(`signed in, against the simulator: median of ${rounds} interleaved runs each`);
    signedIn.forEach((variant, index) => {
      const ms = median(runs[index]!.map((run) => run.ms));
      const cpu = median(runs[index]!.map((run) => run.cpu));
      console.log(
        `  ${variant.name.padEnd(62)} ${ms.toFixed(0).padStart(5)} ms, CPU ${cpu.toFixed(0)} ms`,
      );
    });
  } finally {
    await vault.clear();
    rmSync(dataDir, { recursive: true, force: true });
    await sim.close();
  }
}
