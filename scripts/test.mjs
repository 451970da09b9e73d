// `npm test`: build, end-to-end tests (Playwright + Debian Chromium), unit + integration tests
// (vitest), hardening (vitest), and the lint with the type check, ending with one "N passed,
// N failed, N skipped" line.
//
// Two stages run side by side (CALLBAR_TEST_JOBS to change it), in the order below; three at once
// took 431 s instead of about 470 but timed a relay test out (docs/development.md). The build
// runs once, before the stages that need it, and the CLI and the web preview's server it builds
// are reused by the test runs (CALLBAR_CLI_BUILT); the end-to-end stage starts as soon as the
// build is done and runs two spec files at a time, the unit stage three files at a time and the
// hardening stage three (CALLBAR_TEST_PARALLEL). Each stage's output is kept in
// reports/<stage>.log and printed whole when the stage ends, so parallel output never interleaves.
// A table of each stage's time and CPU ends the run.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { counts, e2eFigures, failures } from './test-report.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const reports = 'reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const jobs = Math.max(1, Number(process.env.CALLBAR_TEST_JOBS) || 2);

/**
 * Every stage, in the order they start, each when a slot is free, the stages it `needs` passed
 * and those it comes `after` have started (or will not run).
 * The order is about the end, where one stage runs alone or beside the short lint. The unit and
 * integration files gain little there (200 s alone, 205 beside the lint: they wait on servers and
 * timers along one long path); the hardening files compute, and took 257-259 s beside the
 * end-to-end specs, 109 s at the end (three at a time). So the unit stage starts beside the
 * end-to-end specs and the hardening stage ends the run: 397-431 s where the other order took
 * 468-504 on the same machine (docs/development.md).
 */
const stages = [
  { name: 'build', needs: [], command: [npm, 'run', '--silent', 'build'] },
  {
    name: 'end-to-end (playwright)',
    needs: ['build'],
    command: [npx, 'playwright', 'test'],
  },
  {
    name: 'unit + integration (vitest)',
    needs: ['build'],
    command: [
      npx,
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reports}/vitest.json`,
    ],
  },
  {
    name: 'hardening (vitest)',
    needs: ['build'],
    command: [
      npx,
      'vitest',
      'run',
      '--config',
      'vitest.hardening.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reports}/hardening.json`,
    ],
  },
  // ESLint, oxlint's type-aware rules with TypeScript's own diagnostics (`--type-check`: the
  // same TypeScript 7 checker as `npm run typecheck`, on the program oxlint builds for its rules
  // anyway; a stage of its own cost 24 CPU-s more) and the formatter (oxfmt).
  {
    name: 'lint + types + format',
    needs: [],
    // It needs nothing, so without this it would start beside the build and take the slot the
    // end-to-end or unit stage needs; it comes after the hardening stage has its slot.
    after: ['hardening (vitest)'],
    command: [npm, 'run', '--silent', 'lint'],
  },
];

const env = {
  ...process.env,
  CALLBAR_CLI_BUILT: '1',
  // The hardening stage runs three files at a time (vitest.hardening.config.ts).
  CALLBAR_TEST_PARALLEL: '1',
  FORCE_COLOR: '0',
};
const started = Date.now();
const results = new Map(); // name → { ok, seconds }

function logFile(name) {
  return `${reports}/${name.split(' ')[0]}.log`;
}

/**
 * The CPU seconds (user + system) of this process's children that have ended, on Linux (else
 * undefined): read as a stage's process is reaped, the difference is that stage's CPU, its own
 * children included. Two stages ending in the same instant would be counted as one.
 */
function endedChildrenCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // cutime and cstime, in clock ticks of 1/100 s.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}
let cpuSoFar = endedChildrenCpu();

function run(stage) {
  return new Promise((resolve) => {
    const begin = Date.now();
    console.log(`\n--- ${stage.name}: started at ${seconds(begin - started)} s`);
    const out = createWriteStream(logFile(stage.name));
    const child = spawn(stage.command[0], stage.command.slice(1), { env });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    let cpu;
    child.on('exit', () => {
      const now = endedChildrenCpu();
      if (now !== undefined && cpuSoFar !== undefined) cpu = now - cpuSoFar;
      cpuSoFar = now;
    });
    child.on('close', (code) => {
      out.end(() => {
        const ok = code === 0;
        const took = Date.now() - begin;
        console.log(`\n=== ${stage.name} (${ok ? 'passed' : 'FAILED'}, ${seconds(took)} s) ===`);
        process.stdout.write(readFileSync(logFile(stage.name), 'utf8'));
        resolve({ ok, seconds: took / 1000, cpu });
      });
    });
  });
}

function seconds(ms) {
  return (ms / 1000).toFixed(0);
}

/** Starts every stage whose needs passed, `jobs` at a time, until all have ended. */
async function schedule() {
  const pending = [...stages];
  const begun = (name) => !pending.some((stage) => stage.name === name);
  const inFlight = new Set();
  for (;;) {
    const blocked = pending.filter((stage) =>
      stage.needs.some((need) => results.get(need)?.ok === false),
    );
    for (const stage of blocked) {
      pending.splice(pending.indexOf(stage), 1);
      results.set(stage.name, { ok: false, seconds: 0, skipped: true });
      console.log(`\n=== ${stage.name}: not run (${stage.needs.join(', ')} failed) ===`);
    }
    const ready =
      inFlight.size < jobs &&
      pending.find(
        (stage) =>
          stage.needs.every((need) => results.get(need)?.ok) && (stage.after ?? []).every(begun),
      );
    if (ready) {
      pending.splice(pending.indexOf(ready), 1);
      const promise = run(ready).then((result) => {
        results.set(ready.name, result);
        inFlight.delete(promise);
      });
      inFlight.add(promise);
      continue;
    }
    if (inFlight.size === 0) return;
    await Promise.race(inFlight);
  }
}

await schedule();

const figures = e2eFigures(reports);
if (figures.length > 0) {
  console.log('\nEnd-to-end hardening figures');
  for (const figure of figures) console.log(`  ${figure}`);
}

const cpuTotal = cpuSoFar === undefined ? '' : `, ${endedChildrenCpu().toFixed(0)} CPU-s`;
console.log(
  `\nStage times (${jobs} at once; the whole run ${seconds(Date.now() - started)} s${cpuTotal}):`,
);
for (const stage of stages) {
  const result = results.get(stage.name);
  const verdict = result.skipped ? 'not run' : result.ok ? 'passed' : 'FAILED';
  const cpu = result.cpu === undefined ? '' : `${result.cpu.toFixed(0).padStart(5)} CPU-s`;
  console.log(
    `  ${stage.name.padEnd(30)} ${String(result.seconds.toFixed(0)).padStart(5)} s ${cpu}  ${verdict}`,
  );
}

const whatFailed = failures(reports);
if (whatFailed.length > 0) {
  console.log('\nFailed:');
  for (const line of whatFailed) console.log(`  ${line}`);
}

const { passed, failed, skipped } = counts(reports);
const allOk = [...results.values()].every((result) => result.ok);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(allOk && failed === 0 ? 0 : 1);
