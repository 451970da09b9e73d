// How Callbar's Node programs are bundled with esbuild (the CLI and the web preview's server in
// scripts/build-cli.mjs, the felt benchmark's preview in bench/felt/build.ts, and the test of
// what the preview evaluates at start): one ESM bundle for Node, split at the dynamic imports,
// so what a command or a start does not need is a chunk loaded when used. keytar (a native
// module) and open (ships a helper script beside itself) stay in node_modules. Minified, and
// without zod's 40 translations of its own messages (Callbar words its messages itself; zod's
// English stays): half of zod's size, and parse time is most of a start.
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

/** esbuild's options for a Node bundle of this checkout; add entryPoints and outdir. */
export const nodeBundleOptions = {
  absWorkingDir: root,
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
};

/**
 * esbuild's options for a Node program bundled as one CommonJS script (the web preview's
 * server): what files/code-cache.ts runs with a V8 code cache, which Node 20 has only for
 * scripts. Its dynamic imports become requires, evaluated when first used as the ES bundle's
 * chunks are (an ES-only package such as `open` too: Node 20.19+ requires ES modules), and
 * `import.meta.url` is the script's own address. Add entryPoints and outdir.
 */
export const nodeProgramOptions = {
  ...nodeBundleOptions,
  splitting: false,
  format: 'cjs',
  // No import() left (of keytar, open): code read from a V8 cache has no loader for one in Node 20.
  supported: { 'dynamic-import': false },
  banner: {
    js: "const __callbarImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
  },
  define: { 'import.meta.url': '__callbarImportMetaUrl' },
};

/**
 * The web preview's program as its built entry (src-main/preview/start.ts) runs it: preview.cjs,
 * beside the entry. Add outdir.
 */
export const previewProgramOptions = {
  ...nodeProgramOptions,
  entryPoints: { preview: 'src-main/preview/preview-program.ts' },
  outExtension: { '.js': '.cjs' },
};
