/**
 * Issue 45 point 2: what the web preview's server evaluates before its first answer. It is
 * bundled as `npm run build` bundles it (scripts/node-bundle.mjs, split at its dynamic imports);
 * what its entry imports statically is what every start compiles and runs. The emergency
 * numbers' data (google-libphonenumber, 570 KB), the vCard and CSV libraries and the import and
 * export modules are loaded when first used, never at start. (That they still load and work
 * when used, bundled: test/e2e/dial-confirmation.spec.ts and import-dialog.spec.ts through the
 * bundled preview, test/integration/core/calls/emergency-dial.test.ts through the built CLI.)
 */
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeBundleOptions } from '../../../scripts/node-bundle.mjs';

let meta: Metafile;

beforeAll(async () => {
  const result = await build({
    ...nodeBundleOptions,
    entryPoints: { main: 'src-main/preview/main.ts', start: 'src-main/preview/start.ts' },
    outdir: 'out/preview-start-modules',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  meta = result.metafile;
}, 120_000);

/** The source files of the outputs `from` imports statically, itself included. */
function staticInputs(from: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of meta.outputs[file]!.imports) {
      if (imported.kind === 'import-statement' && meta.outputs[imported.path]) visit(imported.path);
    }
  };
  visit(from);
  return [...seen].flatMap((file) => Object.keys(meta.outputs[file]!.inputs));
}

const entry = () => Object.keys(meta.outputs).find((file) => file.endsWith('/main.js'))!;
const allInputs = () => Object.values(meta.outputs).flatMap((output) => Object.keys(output.inputs));
const of = (inputs: string[], part: string) => inputs.filter((input) => input.includes(part));

describe('the web preview at start', () => {
  it('evaluates the core, the search and the server', () => {
    const inputs = staticInputs(entry());
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
    const inputs = staticInputs(entry());
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

  it('turns the code cache on before it loads anything else (the built entry, start.ts)', () => {
    const start = Object.keys(meta.outputs).find((file) => file.endsWith('/start.js'))!;
    expect(staticInputs(start).sort()).toEqual([
      'src-main/core/config/data-dir.ts',
      'src-main/core/files/compile-cache.ts',
      'src-main/core/files/folder-owner.ts',
      'src-main/core/files/own-subfolder.ts',
      'src-main/preview/start.ts',
    ]);
  });
});
