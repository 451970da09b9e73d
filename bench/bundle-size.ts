/**
 * The renderer's production bundle: built exactly as `npm run build` builds it (the renderer
 * section of electron.vite.config.ts) into a temporary folder, then measured raw, gzip -9 and
 * brotli, with each dependency's share. Target: at most 150 KB of gzip JavaScript.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, minifySync, type InlineConfig, type Rollup } from 'vite';
import electronViteConfig from '../electron.vite.config';

const TARGET_GZIP_JS = 150 * 1024;

const gzip = (data: Buffer | string) => gzipSync(data, { level: 9 }).length;
const brotli = (data: Buffer | string) =>
  brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The npm package a module belongs to, or "app" for Callbar's own code. */
function packageOf(id: string): string {
  const at = id.lastIndexOf('node_modules/');
  if (at < 0) return id.includes('src-preload') ? 'contract (types only)' : 'app (src-renderer)';
  const parts = id.slice(at + 'node_modules/'.length).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

export async function bundleSize(): Promise<void> {
  const renderer = (electronViteConfig as { renderer: InlineConfig }).renderer;
  const outDir = mkdtempSync(join(tmpdir(), 'callbar-bundle-'));
  try {
    const output = (await build({
      ...renderer,
      configFile: false,
      logLevel: 'silent',
      build: { ...renderer.build, outDir, emptyOutDir: true },
    })) as Rollup.RollupOutput | Rollup.RollupOutput[];
    const chunks = (Array.isArray(output) ? output : [output])
      .flatMap((result) => result.output)
      .filter((item): item is Rollup.OutputChunk => item.type === 'chunk');

    const files = readdirSync(join(outDir, 'assets'));
    let js = { raw: 0, gzip: 0, brotli: 0 };
    console.log('file                          raw        gzip -9    brotli 11');
    for (const file of files) {
      const data = readFileSync(join(outDir, 'assets', file));
      const row = { raw: data.length, gzip: gzip(data), brotli: brotli(data) };
      if (file.endsWith('.js')) {
        js = { raw: js.raw + row.raw, gzip: js.gzip + row.gzip, brotli: js.brotli + row.brotli };
      }
      console.log(
        `${file.padEnd(28)}  ${kb(row.raw).padStart(9)}  ${kb(row.gzip).padStart(9)}  ${kb(row.brotli).padStart(9)}`,
      );
    }
    const verdict = js.gzip <= TARGET_GZIP_JS ? 'within' : 'OVER';
    console.log(
      `JavaScript total: ${kb(js.raw)} raw, ${kb(js.gzip)} gzip, ${kb(js.brotli)} brotli — ${verdict} the ${kb(TARGET_GZIP_JS)} gzip target`,
    );

    // Each package's share: its code as rendered into the chunk, minified and compressed on its
    // own (gzip finds repeats across packages too, so the shares add up to a little more).
    const shares = new Map<string, string[]>();
    for (const chunk of chunks) {
      for (const [id, module] of Object.entries(chunk.modules)) {
        if (!module.code) continue;
        const name = packageOf(id);
        shares.set(name, [...(shares.get(name) ?? []), module.code]);
      }
    }
    console.log('\nshare by package             minified   gzip -9');
    const rows = [...shares].map(([name, codes]) => {
      const { code } = minifySync(`${name}.js`, codes.join('\n'));
      return { name, raw: Buffer.byteLength(code), gzip: gzip(code) };
    });
    for (const row of rows.sort((a, b) => b.gzip - a.gzip)) {
      console.log(
        `${row.name.padEnd(28)}  ${kb(row.raw).padStart(9)}  ${kb(row.gzip).padStart(9)}`,
      );
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
