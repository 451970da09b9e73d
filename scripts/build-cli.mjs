// Builds the `callbar` CLI into out/cli/ (run by `npm run build`, `scripts/setup.sh` and the tests'
// global setup), so that `bin/callbar.mjs` starts plain JavaScript instead of compiling the
// TypeScript on every run. One ESM bundle for Node, split at the dynamic imports
// (scripts/node-bundle.mjs): `--version`, `help` and usage errors load only the command
// registry; the profile, keychain and platform client load when a command needs them. Parse
// time is most of a command's start-up (`npm run bench` measures it).
//
//
// It bundles the web preview's server the same way into out/preview-server/ (main.js: what
// `npm run demo` and the tests start), so each start is plain JavaScript too: the tests start a
// preview per spec file, and compiling the core's TypeScript at each start cost about 2 s of CPU.
//
// And the relay server into out/relay/ (main.js: what `npm run relay`, bin/relay.mjs, starts),
// its own sources only: its dependencies (Fastify, ioredis, pino, prom-client) load from
// node_modules as they are. A node starts in about 0.2 s of CPU instead of tsx's 1.5 s (a rolling
// restart, and the tests start a few dozen).
//
//   node scripts/build-cli.mjs
import { build } from 'esbuild';
import { rmSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { nodeBundleOptions, previewProgramOptions } from './node-bundle.mjs';

const root = join(import.meta.dirname, '..');

/**
 * Bundles into `out/<folder>/`: each build's `entryPoints`, with `nodeBundleOptions` unless it
 * says otherwise. Built beside the target, then swapped in, so a program started meanwhile never
 * sees half a build.
 */
async function bundle(folder, ...builds) {
  const outdir = join(root, 'out', folder);
  const staging = `${outdir}.${process.pid}`;
  try {
    for (const options of builds)
      await build({ ...nodeBundleOptions, outdir: staging, ...options });
    rmSync(outdir, { recursive: true, force: true });
    renameSync(staging, outdir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

await Promise.all([
  bundle('cli', { entryPoints: { callbar: 'src-main/cli/main.ts' } }),
  // main.js, the entry (out/ is its parent folder), runs preview.cjs, the program as one CommonJS
  // script, with a V8 code cache (src-main/core/files/code-cache.ts).
  bundle(
    'preview-server',
    { entryPoints: { main: 'src-main/preview/start.ts' } },
    previewProgramOptions,
  ),
  bundle('relay', { entryPoints: { main: 'relay/main.ts' }, packages: 'external' }),
]);
