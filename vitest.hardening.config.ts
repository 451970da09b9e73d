import { defineConfig } from 'vitest/config';
import { LONGEST, LongestFirst } from './test/support/hardening/longest-first';

/**
 * The files that run alone in a fresh worker (`isolate`, vitest's default): the long attacks
 * (test/support/hardening/longest-first.ts), among them those whose figures measure the worker's
 * own heap (event-flood, hostile-platform, receiver-fuzz), and the relay's. The others share their
 * worker's modules one file after another (`isolate: false`), as the unit and integration files do.
 */
const ALONE = [...LONGEST, 'relay-handoff'].map((name) => `test/hardening/${name}.test.ts`);

/**
 * `npm run test:hardening`: adversarial inputs against the real receiver, router and link parsers,
 * and the secrets audit. Seeded generators, so a failure replays; the figures each file measures
 * are printed as one table at the end (test/support/hardening/figures-setup.ts).
 */
export default defineConfig({
  test: {
    // refresh-kill and cli-event-squatter run the built `callbar` CLI: build it from the current sources.
    globalSetup: ['test/support/build-cli.ts', 'test/support/hardening/figures-setup.ts'],
    // One file at a time for `npm run test:hardening`, whose figures (requests a second, heap
    // growth) mean more on a quiet worker; `npm test` (CALLBAR_TEST_PARALLEL=1) runs three at a
    // time, where the figures are not the point: it ends the run, beside the lint and then alone,
    // and two files at a time left a core half idle there (vmstat).
    fileParallelism: process.env.CALLBAR_TEST_PARALLEL === '1',
    maxWorkers: process.env.CALLBAR_TEST_PARALLEL === '1' ? 3 : 1,
    // The longest files first (test/support/hardening/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    testTimeout: 120_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'alone', include: ALONE } },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/hardening/**/*.test.ts'],
          exclude: ALONE,
          isolate: false,
        },
      },
    ],
  },
});
