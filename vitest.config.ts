import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/hardening runs on its own (npm run test:hardening, vitest.hardening.config.ts).
    exclude: ['test/e2e/**', 'test/hardening/**', 'node_modules/**'],
    // The tests run the built `callbar` CLI as a user does: build it from the current sources.
    globalSetup: ['test/support/build-cli.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
