// What a run of `npm test` left in its reports folder (vitest's and Playwright's JSON reports):
// the counts of the closing line, the end-to-end figures, and what failed, one line each.
import { readFileSync } from 'node:fs';

/** A stage's JSON report, or undefined when the stage did not run. */
function readReport(reports, file) {
  try {
    return JSON.parse(readFileSync(`${reports}/${file}`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every Playwright spec of the run's report, each with its file (none if the stage did not run). */
function playwrightSpecs(reports) {
  const found = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) found.push(spec);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of readReport(reports, 'playwright.json')?.suites ?? []) walk(suite);
  return found;
}

/** The figures the end-to-end hardening specs measured (Playwright annotations of type `figure`). */
export function e2eFigures(reports) {
  return playwrightSpecs(reports).flatMap((spec) =>
    (spec.tests ?? []).flatMap((test) =>
      (test.annotations ?? [])
        .filter((note) => note.type === 'figure')
        .map((note) => `${spec.title}: ${note.description}`),
    ),
  );
}

/** A failure's first line, without colour codes: enough to find it in the stage's log above. */
function firstLine(text) {
  // eslint-disable-next-line no-control-regex
  const plain = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  return (
    plain
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim()
      .slice(0, 300) ?? ''
  );
}

const VITEST_REPORTS = ['vitest.json', 'hardening.json'];

/** A file that failed outside its tests: a hook (a beforeAll) or the file itself. */
const failedOutsideTests = (result) =>
  result.status === 'failed' && !result.assertionResults.some((test) => test.status === 'failed');

/**
 * Each failed test or file, one line each, for the end of the run: a CI that keeps only the last
 * screen of the output still says what failed.
 */
export function failures(reports) {
  const found = [];
  for (const file of VITEST_REPORTS) {
    for (const result of readReport(reports, file)?.testResults ?? []) {
      const where = result.name.replace(`${process.cwd()}/`, '');
      for (const test of result.assertionResults.filter((one) => one.status === 'failed'))
        found.push(`${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      if (failedOutsideTests(result)) {
        const why = firstLine(result.message) || 'failed outside its tests (a hook; see its log)';
        found.push(`${where}: ${why}`);
      }
    }
  }
  for (const spec of playwrightSpecs(reports)) {
    for (const test of spec.tests ?? []) {
      if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
      const error = test.results?.find((result) => result.error)?.error?.message;
      const flaky = test.status === 'flaky' ? ' (passed on a retry)' : '';
      found.push(`${spec.file} > ${spec.title}${flaky}: ${firstLine(error)}`);
    }
  }
  // Outside any test: the global setup, a worker's teardown.
  for (const error of readReport(reports, 'playwright.json')?.errors ?? [])
    found.push(`end-to-end, outside a test: ${firstLine(error.message)}`);
  return found;
}

/** The closing line's counts: a file that failed outside its tests counts as one failure. */
export function counts(reports) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of VITEST_REPORTS) {
    const vitest = readReport(reports, file);
    if (!vitest) continue;
    passed += vitest.numPassedTests;
    failed += vitest.numFailedTests + vitest.testResults.filter(failedOutsideTests).length;
    skipped += vitest.numPendingTests + vitest.numTodoTests;
  }
  const e2e = readReport(reports, 'playwright.json');
  if (e2e) {
    passed += e2e.stats.expected + e2e.stats.flaky;
    failed += e2e.stats.unexpected;
    skipped += e2e.stats.skipped;
  }
  return { passed, failed, skipped };
}
