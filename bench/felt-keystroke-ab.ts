/**
 * Keystroke → painted for two builds of Callbar and the baseline page in the same run, query by
 * query in turn (not part of `npm run bench`): on a machine whose load changes from one minute to
 * the next, a before/after told apart by two runs minutes apart says more about the load than
 * about the change; typed in turn, each query meets the same load on every page.
 *
 * `CALLBAR_AB_BEFORE` names the other build: a folder of what bench/felt/build.ts makes (its
 * `renderer/`, `preview/` and `preview-main.mjs`), e.g. from a checkout of the commit before:
 *
 *   git archive <commit> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/
 *   (cd /tmp/before && npx tsx -e "import('./bench/felt/build.ts').then((m) => m.buildFelt())")
 *   CALLBAR_AB_BEFORE=/tmp/before/out/felt-bench-<pid> CALLBAR_FELT_SIZES=100000 \
 *     bash scripts/with-keyring.sh npx tsx bench/felt-keystroke-ab.ts
 *
 * Each build runs its own preview on its own profile (a simulator each, the same contacts
 * cached). Prints each page's keystroke → painted and the split (page-probe.ts) at every size.
 */
import { chromium, type Page } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openVault } from '../src-main/core/vault/keytar-vault';
import { openBaseline } from './felt/baseline-page';
import { buildFelt, type FeltBuild } from './felt/build';
import { feltProfile } from './felt/felt-profile';
import { probeSource, WAIT_SOURCE, type KeyTiming } from './felt/page-probe';
import { startPreview, type RunningPreview } from './felt/preview-start';
import { keystrokeSplit, showSplit } from './felt/split';
import { showSpread, spread } from './felt/spread';
import { typingScript, type Keystroke } from './felt/typing';
import { generateDirectory } from './search-data';

const SIZES = (process.env.CALLBAR_FELT_SIZES ?? '8700,100000').split(',').map(Number);
const KEYSTROKES = Number(process.env.CALLBAR_FELT_KEYSTROKES ?? 500);
const BEFORE = process.env.CALLBAR_AB_BEFORE;
const UNCHANGED_AFTER_MS = 500;
/** CALLBAR_AB_OUT=prefix: each page's timings kept as `prefix-<size>.json`. */
const OUT = process.env.CALLBAR_AB_OUT;

if (!BEFORE) throw new Error('Set CALLBAR_AB_BEFORE to the folder of the other build.');
const before: Pick<FeltBuild, 'outDir' | 'previewMain'> = {
  outDir: BEFORE,
  previewMain: join(BEFORE, 'preview-main.mjs'),
};
const after = await buildFelt();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const profiles = [
  await feltProfile((dataDir) => openVault({ dataDir })),
  await feltProfile((dataDir) => openVault({ dataDir })),
];
try {
  for (const size of SIZES) await measure(size);
} finally {
  await browser.close();
  for (const profile of profiles) await profile.close();
  after.remove();
}

interface Typist {
  name: string;
  page: Page;
  /** Each measured key's timing, with its place in its query (0: the first key after Escape). */
  timings: (KeyTiming & { at: number })[];
  unchanged: number;
}

async function measure(size: number) {
  const { contacts, priorities } = generateDirectory(size);
  for (const profile of profiles) await profile.cache(contacts, priorities);
  const keys = typingScript(contacts, KEYSTROKES);
  const previews: RunningPreview[] = [];
  try {
    const typists: Typist[] = [];
    for (const [name, build, profile] of [
      ['before', before, profiles[0]!],
      ['after', after, profiles[1]!],
    ] as const) {
      const preview = await startPreview(build, profile.env, 'mar');
      previews.push(preview);
      const page = await browser.newPage({ viewport: { width: 420, height: 640 } });
      await page.goto(preview.url);
      typists.push({ name, page, timings: [], unchanged: 0 });
    }
    typists.push({
      name: 'baseline',
      page: await openBaseline(browser, after, contacts),
      timings: [],
      unchanged: 0,
    });
    for (const typist of typists) {
      await typist.page.locator('.search-box').waitFor();
      await typist.page.locator('.search-box').focus();
      await typist.page.evaluate(probeSource('section.search'));
    }
    // Query by query (a query ends with its Escape), each page in turn, the order rotating.
    const queries: Keystroke[][] = [[]];
    for (const key of keys) {
      queries.at(-1)!.push(key);
      if (!key.measured) queries.push([]);
    }
    console.log(`\n${size.toLocaleString('en')} contacts (${queries.length} queries)`);
    for (const [at, query] of queries.entries()) {
      for (let turn = 0; turn < typists.length; turn++) {
        await typeQuery(typists[(at + turn) % typists.length]!, query);
      }
      if (at % 20 === 19) console.log(`    … ${at + 1} queries`);
    }
    for (const { name, page, timings, unchanged } of typists) {
      console.log(
        `  ${name}: keystroke → painted ${showSpread(spread(timings.map((timing) => timing.paintMs)))}; ${unchanged} changed nothing`,
      );
      if (name !== 'baseline') console.log(showSplit(keystrokeSplit(timings), '      '));
      await page.close();
    }
    if (OUT) {
      const keep = Object.fromEntries(typists.map(({ name, timings }) => [name, timings]));
      writeFileSync(`${OUT}-${size}.json`, JSON.stringify(keep));
    }
  } finally {
    for (const preview of previews) await preview.stop();
  }
}

async function typeQuery(typist: Typist, keys: readonly Keystroke[]) {
  for (const [at, key] of keys.entries()) {
    await typist.page.waitForTimeout(key.pauseMs);
    await typist.page.keyboard.press(key.key);
    if (!key.measured) continue;
    const timing = await typist.page.evaluate<KeyTiming | null>(WAIT_SOURCE(UNCHANGED_AFTER_MS));
    if (timing) typist.timings.push({ ...timing, at });
    else typist.unchanged += 1;
  }
}
