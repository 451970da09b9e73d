/**
 * `npm run preview` / the demo without Electron: starts the core and the web preview server,
 * prints the address (with its session token), and opens the browser when there is one.
 *
 *   tsx src-main/preview/main.ts [--port N] [--no-open] [--json]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import open from 'open';
import { createCore } from '../core/callbar-core';
import { createLogger } from '../core/log/logger';
import { startPreviewServer } from './server';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    open: { type: 'boolean', default: true },
    json: { type: 'boolean', default: false },
  },
  allowNegative: true,
});

// CALLBAR_OUT_DIR points at another build output (tests use it); the default is this checkout's.
const outDir = process.env.CALLBAR_OUT_DIR ?? fileURLToPath(new URL('../../out', import.meta.url));
const rendererDir = join(outDir, 'renderer');
const bridgeFile = join(outDir, 'preview/bridge.js');
if (!existsSync(join(rendererDir, 'index.html')) || !existsSync(bridgeFile)) {
  process.stderr.write('The renderer is not built yet: run `npm run build` first.\n');
  process.exit(1);
}

const log = createLogger();
const core = createCore({ runtime: 'preview', log });
const server = await startPreviewServer({
  core,
  rendererDir,
  bridgeFile,
  port: Number(values.port),
  log,
});

if (values.json) {
  process.stdout.write(JSON.stringify({ url: server.url }) + '\n');
} else {
  process.stdout.write(`Callbar preview running at\n\n  ${server.url}\n\nPress Ctrl+C to stop.\n`);
}

const hasDisplay =
  process.platform !== 'linux' || Boolean(process.env.DISPLAY ?? process.env.WAYLAND_DISPLAY);
if (values.open && hasDisplay && !process.env.CI) {
  open(server.url).catch(() => {
    process.stderr.write('Could not open a browser; open the address above yourself.\n');
  });
}

const stop = () => {
  void server.close().then(() => core.close().then(() => process.exit(0)));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
