// `npm test`: lint, typecheck, build, unit + integration tests (vitest), hardening (vitest), end-to-end tests
// (Playwright + Debian Chromium). Stops at the first failing step and ends with one summary line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const reports = 'reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

function step(name, command, args) {
  console.log(`\n=== ${name} ===`);
  const run = spawnSync(command, args, { stdio: 'inherit' });
  return run.status === 0;
}

function counts() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of ['vitest.json', 'hardening.json']) {
    try {
      const vitest = JSON.parse(readFileSync(`${reports}/${file}`, 'utf8'));
      passed += vitest.numPassedTests;
      failed += vitest.numFailedTests;
      skipped += vitest.numPendingTests + vitest.numTodoTests;
    } catch {
      /* the step did not run */
    }
  }
  try {
    const e2e = JSON.parse(readFileSync(`${reports}/playwright.json`, 'utf8'));
    passed += e2e.stats.expected + e2e.stats.flaky;
    failed += e2e.stats.unexpected;
    skipped += e2e.stats.skipped;
  } catch {
    /* the step did not run */
  }
  return { passed, failed, skipped };
}

const ok =
  step('lint + format', npm, ['run', '--silent', 'lint']) &&
  step('typecheck', npm, ['run', '--silent', 'typecheck']) &&
  step('build', npm, ['run', '--silent', 'build']) &&
  step('unit + integration (vitest)', npx, [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reports}/vitest.json`,
  ]) &&
  step('hardening (vitest)', npx, [
    'vitest',
    'run',
    '--config',
    'vitest.hardening.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reports}/hardening.json`,
  ]) &&
  step('end-to-end (playwright)', npx, ['playwright', 'test']);

/** The figures the end-to-end hardening specs measured (Playwright annotations of type `figure`). */
function e2eFigures() {
  const found = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const run of spec.tests ?? []) {
        for (const note of run.annotations ?? []) {
          if (note.type === 'figure') found.push(`${spec.title}: ${note.description}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  try {
    for (const suite of JSON.parse(readFileSync(`${reports}/playwright.json`, 'utf8')).suites)
      walk(suite);
  } catch {
    /* the step did not run */
  }
  return found;
}

const figures = e2eFigures();
if (figures.length > 0) {
  console.log('\nEnd-to-end hardening figures');
  for (const figure of figures) console.log(`  ${figure}`);
}

const { passed, failed, skipped } = counts();
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(ok && failed === 0 ? 0 : 1);
