/**
 * Issue 45 point 2: what the web preview's server evaluates before its first answer. It is
 * bundled as `npm run build` bundles it (scripts/node-bundle.mjs): the entry (start.ts) runs the
 * program (preview-program.ts, one CommonJS script whose dynamic imports are required when first
 * used) with a V8 code cache. What the program runs at once, preview/main.ts and what it imports
 * statically, is what every start evaluates. The emergency
 * numbers' data (google-libphonenumber, 570 KB), the vCard and CSV libraries and the import and
 * export modules are loaded when first used, never at start. (That they still load and work
 * when used, bundled: test/e2e/dial-confirmation.spec.ts and import-dialog.spec.ts through the
 * bundled preview, test/integration/core/calls/emergency-dial.test.ts through the built CLI.)
 */
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeBundleOptions, previewProgramOptions } from '../../../scripts/node-bundle.mjs';

/** The program's bundle, and the entry's. */
let program: Metafile;
let start: Metafile;

beforeAll(async () => {
  const bundled = (options: object) =>
    build({ ...options, write: false, metafile: true, logLevel: 'silent' }).then(
      (result) => result.metafile,
    );
  [program, start] = await Promise.all([
    bundled({ ...previewProgramOptions, outdir: 'out/preview-start-modules' }),
    bundled({
      ...nodeBundleOptions,
      entryPoints: { main: 'src-main/preview/start.ts' },
      outdir: 'out/preview-start-modules',
    }),
  ]);
}, 120_000);

/** The source files `from` imports statically in `meta`'s bundle, itself included. */
function staticInputs(meta: Metafile, from: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !meta.inputs[file]) return;
    seen.add(file);
    for (const imported of meta.inputs[file].imports) {
      if (imported.kind === 'import-statement') visit(imported.path);
    }
  };
  visit(from);
  return [...seen];
}

/** What a start of the program evaluates: its entry, and main.ts, which it runs at once. */
const entry = () => [
  ...staticInputs(program, 'src-main/preview/preview-program.ts'),
  ...staticInputs(program, 'src-main/preview/main.ts'),
];
const allInputs = () => Object.keys(program.inputs);
const of = (inputs: string[], part: string) => inputs.filter((input) => input.includes(part));

describe('the web preview at start', () => {
  it('evaluates the core, the search and the server', () => {
    const inputs = entry();
    for (const part of [
      'src-main/core/callbar-core.ts',
      'src-main/core/directory/contact-scan.ts',
      'src-main/core/numbers/destination-class.ts',
      'src-main/preview/server.ts',
    ]) {
      expect(of(inputs, part), part).toHaveLength(1);
    }
  });

  it('leaves the vCard and CSV libraries, the import and export modules, the lock files and the relay handoff cipher to a later chunk', () => {
    const inputs = entry();
    for (const part of [
      'node_modules/ical.js/',
      'node_modules/papaparse/',
      'src-main/core/contacts-io/window-imports.ts',
      'src-main/core/exports/window-exports.ts',
      'node_modules/proper-lockfile/',
      'node_modules/graceful-fs/',
      'node_modules/@hpke/',
    ]) {
      expect(of(inputs, part), part).toEqual([]);
      expect(of(allInputs(), part).length, part).toBeGreaterThan(0);
    }
  });

  it('bundles no emergency-number data: it is required from node_modules when first used', () => {
    expect(of(allInputs(), 'node_modules/google-libphonenumber/')).toEqual([]);
  });

  it('compiles one set of libphonenumber-js metadata, the max one every number is read with', () => {
    const metadata = of(allInputs(), 'node_modules/libphonenumber-js/metadata.');
    expect(new Set(metadata.map((input) => input.replace(/.*\//, '')))).toEqual(
      new Set(['metadata.max.json.js']),
    );
  });

  it('starts the program with its code cache, loading nothing else first (the built entry, start.ts)', () => {
    expect(Object.keys(start.inputs).sort()).toEqual([
      'src-main/core/config/data-dir.ts',
      'src-main/core/files/code-cache.ts',
      'src-main/core/files/folder-owner.ts',
      'src-main/core/files/own-subfolder.ts',
      'src-main/preview/start.ts',
    ]);
  });

  it('starts reading the cache file before it evaluates the preview', () => {
    const first = staticInputs(program, 'src-main/preview/preview-program.ts');
    expect(of(first, 'src-main/core/directory/cache-file-read.ts')).toHaveLength(1);
    for (const part of [
      'src-main/preview/main.ts',
      'src-main/core/callbar-core.ts',
      'src-main/core/directory/contact-scan.ts',
      'node_modules/zod/',
    ]) {
      expect(of(first, part), part).toEqual([]);
    }
  });
});
