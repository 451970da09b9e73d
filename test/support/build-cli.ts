/**
 * Vitest's and Playwright's global setup: builds the `callbar` CLI (out/cli), the web preview's
 * server (out/preview-server) and the relay (out/relay) from the current sources, once a run.
 * `npm test` builds everything once before its test stages and sets CALLBAR_CLI_BUILT=1, so the
 * stages it runs side by side reuse that build instead of each bundling again.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function buildCli(): void {
  if (process.env.CALLBAR_CLI_BUILT === '1') return;
  execFileSync(process.execPath, [join(import.meta.dirname, '../../scripts/build-cli.mjs')], {
    stdio: 'inherit',
  });
}
