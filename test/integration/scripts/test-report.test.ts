/**
 * The end of `npm test` (scripts/test-report.mjs) read from the reports real runs leave: vitest
 * and Playwright each run a scratch file that fails (a test, a hook), and what is read back names
 * each failure on one line and counts a file that failed in a hook as a failure.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { counts, failures } from '../../../scripts/test-report.mjs';

const root = join(import.meta.dirname, '../../..');
const bin = (name: string) => join(root, 'node_modules/.bin', name);

const VITEST_FILE = `import { describe, expect, it } from 'vitest';
describe('sums', () => {
  it('adds', () => expect(1 + 1).toBe(3));
  it('subtracts', () => expect(2 - 1).toBe(1));
});
`;
// As demo.test.ts failed in the CI: its group's start (a beforeAll) threw, no test failed.
const HOOK_FILE = `import { beforeAll, describe, it } from 'vitest';
describe('a start', () => {
  beforeAll(() => { throw new Error('the start broke'); });
  it('never runs', () => {});
});
`;
// From this checkout's Playwright: the scratch folder has no node_modules of its own.
const playwrightTest = join(root, 'node_modules/@playwright/test/index.mjs');
const SPEC = `import { expect, test } from ${JSON.stringify(playwrightTest)};
test('compares', () => expect('a').toBe('b'));
test('passes', () => expect(1).toBe(1));
`;

describe('the end of npm test', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'callbar-test-report-'));
  const reports = join(scratch, 'reports');

  beforeAll(() => {
    mkdirSync(reports);
    writeFileSync(join(scratch, 'sums.test.mjs'), VITEST_FILE);
    writeFileSync(join(scratch, 'hook.test.mjs'), HOOK_FILE);
    writeFileSync(join(scratch, 'compare.e2e.mjs'), SPEC);
    writeFileSync(
      join(scratch, 'pw.config.mjs'),
      `export default { testDir: '.', testMatch: '*.e2e.mjs', reporter: [['json', { outputFile: 'reports/playwright.json' }]] };`,
    );
    const options = { cwd: scratch, encoding: 'utf8' as const, timeout: 60_000 };
    spawnSync(
      bin('vitest'),
      ['run', '--root', scratch, '--reporter=json', `--outputFile.json=${reports}/vitest.json`],
      options,
    );
    spawnSync(bin('playwright'), ['test', '-c', 'pw.config.mjs'], options);
  }, 90_000);

  it('names each failed test and each file failed outside its tests, one line each', () => {
    const lines = failures(reports);
    expect(lines).toHaveLength(3);
    expect(lines).toContainEqual(
      expect.stringMatching(/sums\.test\.mjs > sums adds: AssertionError: expected 2 to be 3/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/hook\.test\.mjs: failed outside its tests/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/compare\.e2e\.mjs > compares: Error: expect\(received\)\.toBe/),
    );
    // One line each, without colour codes.
    for (const line of lines) expect(line.includes('\n') || line.includes('\u001b')).toBe(false);
  });

  it('counts a file that failed in a hook as a failure', () => {
    // vitest: 1 passed, 1 failed, the hook's file once and its test not run; Playwright: 1 and 1.
    expect(counts(reports)).toEqual({ passed: 2, failed: 3, skipped: 1 });
  });
});
