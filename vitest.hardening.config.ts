import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/hardening/longest-first';

/**
 * `npm run test:hardening`: adversarial inputs against the real receiver, router and link parsers,
 * and the secrets audit. Seeded generators, so a failure replays; the figures each file measures
 * are printed as one table at the end (test/support/hardening/figures-setup.ts).
 */
export default defineConfig({
  test: {
    include: ['test/hardening/**/*.test.ts'],
    // refresh-kill and cli-event-squatter run the built `callbar` CLI: build it from the current sources.
    globalSetup: ['test/support/build-cli.ts', 'test/support/hardening/figures-setup.ts'],
    // One file at a time for `npm run test:hardening`, whose figures (requests a second, heap
    // growth) mean more on a quiet worker; `npm test` (CALLBAR_TEST_PARALLEL=1) runs two at a time
    // beside its other stages, where the figures are not the point.
    fileParallelism: process.env.CALLBAR_TEST_PARALLEL === '1',
    maxWorkers: process.env.CALLBAR_TEST_PARALLEL === '1' ? 2 : 1,
    // The longest files first (test/support/hardening/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
