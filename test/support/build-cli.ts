/** Vitest global setup: builds the `callbar` CLI (out/cli) from the current sources, once a run. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function buildCli(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, '../../scripts/build-cli.mjs')], {
    stdio: 'inherit',
  });
}
