// Runs Doyensec's electronegativity (pinned, fetched by npx from the npm registry; not a
// dependency) over Callbar's Electron sources and over the built app in out/ (run `npm run
// build` first), and compares every finding with the reviewed list below, whose verdicts are
// written down in docs/security-dependencies.md ("Electronegativity"). Exit 1 when a finding is
// not on the list: review it, fix it or add it with its reason.
//
//   node scripts/electronegativity.mjs            # both scans
//   node scripts/electronegativity.mjs --source   # the sources only (no build needed)
//
// electronegativity 1.10.3 cannot walk today's JavaScript (class private fields `#x` stop its
// tree walker, after which it silently reports every global check as "missing"), so the built
// main and preload bundles are first lowered to ES2019 with esbuild: the same code, older
// syntax. The sources (TypeScript) it parses with Babel's TypeScript plugin and walks fine.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const VERSION = '1.10.3';
const root = join(import.meta.dirname, '..');

/** check id → files it may name: each reviewed, see docs/security-dependencies.md. */
const REVIEWED = {
  // 'self' in script-src "can be problematic if you host JSONP, Angular or user uploaded files":
  // app://callbar serves only the built bundle.
  CSP_GLOBAL_CHECK: ['src-renderer/index.html', 'renderer/index.html'],
  // The options come from core's windowOptions (the tool cannot follow a function call).
  CONTEXT_ISOLATION_JS_CHECK: ['src-main/app/windows.ts', 'main/index.js'],
  SANDBOX_JS_CHECK: ['src-main/app/windows.ts', 'main/index.js'],
  // Middle-click opens through the window-open handler, which denies every window.
  AUXCLICK_JS_CHECK: ['src-main/app/windows.ts', 'main/index.js'],
  // The one openExternal, behind the allow-list; the window-open handler hands it the URL.
  OPEN_EXTERNAL_JS_CHECK: ['src-main/app/external.ts', 'src-main/app/windows.ts', 'main/index.js'],
  // tel:/callto: registration, with the link after `--`.
  PROTOCOL_HANDLER_JS_CHECK: ['src-main/app/os-integration.ts', 'main/index.js'],
};

/** The findings of one run, from its SARIF report (one write; its CSV writer races itself). */
function scan(label, dir, work) {
  const report = join(work, `${label}.sarif`);
  execFileSync(
    'npx',
    ['-y', `@doyensec/electronegativity@${VERSION}`, '-i', dir, '-o', report, '-r', '-v', 'false'],
    { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const sarif = JSON.parse(settledText(report));
  return sarif.runs[0].results.map((result) => {
    const { artifactLocation, region } = result.locations[0].physicalLocation;
    return {
      scan: label,
      check: result.ruleId,
      file: artifactLocation.uri,
      at: `${region.startLine}:${region.startColumn}`,
      level: result.level,
    };
  });
}

/** The report once it is whole (written asynchronously; npx may return first). */
function settledText(file) {
  for (let tries = 0; tries < 50; tries++) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    try {
      JSON.parse(text);
      return text;
    } catch {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  throw new Error(`electronegativity's report ${file} is not whole`);
}

const work = mkdtempSync(join(tmpdir(), 'callbar-electronegativity-'));
try {
  const source = join(work, 'source');
  for (const part of ['src-main', 'src-preload', 'src-renderer', 'package.json']) {
    cpSync(join(root, part), join(source, part), { recursive: true });
  }
  const findings = scan('source', source, work);

  if (!process.argv.includes('--source')) {
    const out = join(root, 'out');
    if (!existsSync(join(out, 'main/index.js'))) {
      console.error('out/ has no build: run `npm run build` first (or pass --source).');
      process.exit(2);
    }
    const built = join(work, 'built');
    const lower = (entry, outfile, format) =>
      build({
        entryPoints: [join(out, entry)],
        outfile: join(built, outfile),
        target: 'es2019',
        supported: { 'import-meta': true, 'top-level-await': true },
        format,
        logLevel: 'error',
      });
    // The shell, its entry (start.js) and the chunks the bundler split off: every file of main.
    for (const file of readdirSync(join(out, 'main'), { recursive: true })) {
      if (String(file).endsWith('.js')) await lower(`main/${file}`, `main/${file}`, 'esm');
    }
    await lower('preload/index.cjs', 'preload/index.js', 'cjs');
    cpSync(join(out, 'renderer'), join(built, 'renderer'), { recursive: true });
    cpSync(join(root, 'package.json'), join(built, 'package.json'));
    findings.push(...scan('built', built, work));
  }

  const unreviewed = findings.filter(
    (finding) => !(REVIEWED[finding.check] ?? []).includes(finding.file),
  );
  for (const finding of findings) {
    const mark = unreviewed.includes(finding) ? 'NEW     ' : 'reviewed';
    console.log(
      `${mark}  ${finding.scan.padEnd(6)}  ${finding.check.padEnd(40)} ${finding.file}:${finding.at}`,
    );
  }
  console.log(
    `${findings.length} findings, ${unreviewed.length} not reviewed (electronegativity ${VERSION})`,
  );
  process.exitCode = unreviewed.length > 0 ? 1 : 0;
} finally {
  rmSync(work, { recursive: true, force: true });
}
