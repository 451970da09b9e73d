// Builds the `callbar` CLI into out/cli/ (run by `npm run build`, `scripts/setup.sh` and the tests'
// global setup), so that `bin/callbar.mjs` starts plain JavaScript instead of compiling the
// TypeScript on every run. One ESM bundle for Node, split at the dynamic imports: `--version`,
// `help` and usage errors load only the command registry; the profile, keychain and platform
// client load when a command needs them. keytar (a native module) and open (ships a helper
// script beside itself) stay in node_modules. Minified, and without zod's 40 translations of its
// own messages (Callbar words its messages itself; zod's English stays): half of zod's size, and
// parse time is most of a command's start-up (`npm run bench` measures it).
//
//
// It bundles the web preview's server the same way into out/preview-server/ (main.js: what
// `npm run demo` and the tests start), so each start is plain JavaScript too: the tests start a
// preview per spec file, and compiling the core's TypeScript at each start cost about 2 s of CPU.
//
//   node scripts/build-cli.mjs
import { build } from 'esbuild';
import { rmSync, renameSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

/** zod's `locales` namespace (every language) reduced to English, the one zod configures. */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: join(root, 'node_modules/zod/v4/locales'),
    }));
  },
};

/**
 * Bundles `entry` into `out/<folder>/<name>.js`: built beside the target, then swapped in, so a
 * program started meanwhile never sees half a build.
 */
async function bundle(name, entry, folder) {
  const outdir = join(root, 'out', folder);
  const staging = `${outdir}.${process.pid}`;
  try {
    await build({
      absWorkingDir: root,
      entryPoints: { [name]: entry },
      outdir: staging,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      external: ['keytar', 'open'],
      // A bundled CommonJS dependency may call require(); ESM output has none of its own.
      banner: {
        js: "import { createRequire as __callbarRequire } from 'node:module'; const require = __callbarRequire(import.meta.url);",
      },
      chunkNames: 'chunks/[name]-[hash]',
      minify: true,
      plugins: [englishOnlyZod],
      legalComments: 'none',
      logLevel: 'warning',
    });
    rmSync(outdir, { recursive: true, force: true });
    renameSync(staging, outdir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

await Promise.all([
  bundle('callbar', 'src-main/cli/main.ts', 'cli'),
  // out/preview-server/main.js finds out/renderer as src-main/preview/main.ts does (../../out).
  bundle('main', 'src-main/preview/main.ts', 'preview-server'),
]);
