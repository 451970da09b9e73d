/**
 * Runs the repo's oxlint on planted files, as the lint tests do (type-aware-lint.test.ts,
 * test-files-lint.test.ts).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const oxlint = join(import.meta.dirname, '../../node_modules/.bin/oxlint');

/**
 * What oxlint run in `cwd` with `args` reports: each finding's rule (`no-debugger`,
 * `no-floating-promises`) or TypeScript error code (`TS2322`), sorted. A run that finds
 * something exits non-zero; its findings are read all the same.
 */
export async function oxlintFindings(args: readonly string[], cwd: string): Promise<string[]> {
  const run = await promisify(execFile)(oxlint, ['--format', 'unix', ...args], { cwd }).catch(
    (failed: { stdout: string }) => failed,
  );
  return [...run.stdout.matchAll(/(?:eslint|typescript)\(([A-Za-z0-9-]+)\)/g)]
    .map((match) => match[1]!)
    .sort();
}
