import { defineConfig } from 'vitest/config';
import { windowCatalogs } from './scripts/window-catalogs.ts';

export default defineConfig({
  // The window's compiled catalogs (src-renderer/src/i18n.ts), for the renderer's unit tests.
  plugins: [windowCatalogs()],
  test: {
    // The tests run the built `callbar` CLI as a user does: build it from the current sources.
    globalSetup: ['test/support/build-cli.ts'],
    // Most tests wait on real servers and processes, not the CPU: three files at a time keep two
    // cores busy (vitest's default, cores − 1, is one file at a time on a 2-core machine).
    maxWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // The Electron shell's wiring tests replace modules (vi.mock): they run isolated.
          exclude: ['test/unit/app/**'],
          // Pure functions and in-memory modules: one worker's modules serve its files one after
          // another instead of being loaded again for each (a third of the CPU, 2.5× faster).
          // So a test leaves shared modules as it found them (create-i18n.ts copies its tables).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // Real servers and `callbar` processes (a test runs up to a dozen, each 0.2–0.4 CPU-s):
          // on the CI's shared 2 cores a 10 s journey takes 20–30 s. The guard is against a hang.
          testTimeout: 60_000,
          include: ['test/integration/**/*.test.ts'],
          // The files share their worker's modules, one file after another (isolate: false, as
          // the unit files do): a fresh worker per file loaded core, the simulator and vitest
          // again for each of the hundred files, a third of the project's CPU (578 → 397 CPU-s,
          // docs/development.md). So a file leaves nothing running (servers, processes, timers)
          // and no process-wide state changed (process.env, listeners) when it ends; the tests
          // start their own simulators, profiles and CLI processes as before.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          // The Electron shell's wiring tests replace modules (vi.mock): each file on its own.
          include: ['test/unit/app/**/*.test.ts'],
        },
      },
    ],
  },
});
