#!/usr/bin/env node
// The callbar CLI, as built into out/cli by `npm run build` (or scripts/setup.sh).
try {
  await import('../out/cli/callbar.js');
} catch (error) {
  if (
    error?.code !== 'ERR_MODULE_NOT_FOUND' ||
    !String(error.message).includes('out/cli/callbar.js')
  ) {
    throw error;
  }
  process.stderr.write(
    'callbar: the CLI is not built yet. Run `npm run build:cli` (or `bash scripts/setup.sh`) first.\n',
  );
  process.exitCode = 1;
}
