#!/usr/bin/env node
// The relay server (`npm run relay`), as built into out/relay by `npm run build:relay` (or
// `npm run build`, or scripts/setup.sh). In this process: a signal to it reaches the relay itself.
try {
  await import('../out/relay/main.js');
} catch (error) {
  if (
    error?.code !== 'ERR_MODULE_NOT_FOUND' ||
    !String(error.message).includes('out/relay/main.js')
  ) {
    throw error;
  }
  process.stderr.write(
    'relay: not built yet. Run `npm run build:relay` (or `bash scripts/setup.sh`) first.\n',
  );
  process.exitCode = 1;
}
