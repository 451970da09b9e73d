/**
 * How fast the `callbar` CLI starts, against `node -e 0` on the same machine and in the same run
 * (the target: `--version` and `status` when not connected, median ≤ 3× node -e 0). Also
 * the way it used to start, compiling the TypeScript through tsx on every run. Runs are
 * interleaved so a machine that gets busier mid-run slows every variant alike.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  return Promise.resolve();
}
