import { defineConfig } from '@playwright/test';
import { WINDOW_CHROMIUM } from './test/support/chromium';

/**
 * End-to-end tests drive Debian's Chromium (never a downloaded browser) against the web preview,
 * which runs the real core behind the same window.callbar contract as the Electron preload.
 *
 * Spec files run two at a time (CALLBAR_E2E_WORKERS to change it), each with its own simulator
 * (in the worker), web preview and profile folder, every port picked free by the system; each
 * worker has one browser and one browser context, reset between tests (reuseContext, below). The
 * tests of one file run in order in one worker (they share its started app). A spec file waits
 * on the browser and servers more than it computes: two at once keep the two cores busy.
 */
export default defineConfig({
  testDir: 'test/e2e',
  // The web preview's server and the CLI, built from the current sources (test/support/build-cli.ts;
  // `npm test` builds once and sets CALLBAR_CLI_BUILT=1).
  globalSetup: './test/support/build-cli.ts',
  // A journey (connect through the portal, scans in both themes, a restart) is 10–20 s on a quiet
  // machine and two to three times that beside the suite's other stages on the CI's 2 cores: the
  // guard is against a hang. Each assertion keeps its own few seconds.
  timeout: 60_000,
  // An assertion's own wait: what the window shows after the platform's events (a webhook to the
  // receiver, core, the event stream, a render) took over the default 5 s on a CI whose two cores
  // ran the suite's other stages and more (a call bar still "Ringing…" 5 s after the answer).
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: Number(process.env.CALLBAR_E2E_WORKERS) || 2,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    // One browser context per worker, reset between tests (Playwright clears its cookies, cache,
    // localStorage, IndexedDB, routes, bindings and init scripts, and re-applies the viewport and
    // the emulated media), instead of a new one per test. Every test still starts on a fresh
    // document (page.goto), and the tests of a file already share one started app; what a new
    // context cost each test was a new renderer process that compiled the window's bundle and
    // axe-core's 650 KB anew: half of the renderer's CPU (numbers.spec.ts: 48 → 33 CPU-s,
    // Chromium's renderers 23 → 12; docs/development.md). Not reset: permissions a test grants
    // (account.spec.ts grants the clipboard; no test relies on its absence) and page listeners,
    // which record into the test that added them.
    reuseContext: true,
    // The size of Callbar's window (src-main/app/main-window.ts), so screenshots show what a user sees.
    viewport: { width: 420, height: 640 },
    launchOptions: {
      executablePath: WINDOW_CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // One renderer process for a worker's tests, not a new one per test. Between two tests
        // Playwright resets the context and leaves the page for about:blank; with a process per
        // site (site isolation) the next test's page then started a new renderer, which compiled
        // the window's bundle cold: 22 tests that only open the window took 25 renderers and
        // 56 CPU-s, without it 3 and 42; numbers.spec.ts 31 -> 23 CPU-s (docs/development.md).
        // Every test still gets a new document, and what a page can see and reach is the same
        // (same-origin policy, CORS, framing rules). hostile-origins.spec.ts's attacking browser
        // leaves it out: it stands for a user's browser.
        '--disable-site-isolation-trials',
      ],
    },
  },
});
