import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
/**
 * How long a test waits for the address Callbar opens: well inside a test's timeout, so a Connect
 * that opened nothing fails saying so (and what the window showed: connectThroughPortal).
 */
const OPENED_WAIT_MS = 25_000;

/**
 * A stand-in for the built page (its CALLBAR_OUT_DIR), for a preview process that is there for
 * its core, not its window: a new folder, to be removed by the caller.
 */
export function standInPages(): string {
  const out = mkdtempSync(join(tmpdir(), 'callbar-preview-out-'));
  mkdirSync(join(out, 'renderer'));
  mkdirSync(join(out, 'preview'));
  writeFileSync(join(out, 'renderer/index.html'), '<html><head></head><body></body></html>');
  writeFileSync(join(out, 'preview/bridge.js'), '');
  return out;
}

export interface PreviewProcess {
  url: string;
  origin: string;
  /** The next address Callbar asked to open in the system browser (with --print-opened-urls). */
  nextOpenedUrl(): Promise<string>;
  /**
   * A call on the preview's own channel, as its page makes it (the session token of its address,
   * its own origin): the answer as it came.
   */
  invoke<T>(channel: string, body: unknown): Promise<{ ok: boolean; value: T }>;
  /** Presses the global dial shortcut with `clipboard` on the clipboard (with --stdin-shortcut). */
  pressDialShortcut(clipboard: string): void;
  stop(): Promise<void>;
}

/**
 * Starts the web preview as `npm run demo` does (the server bundled by `npm run build`, which the
 * suites' global setup makes current: test/support/build-cli.ts), and reads what it prints.
 */
export async function startPreviewProcess(
  env: NodeJS.ProcessEnv = {},
  args: string[] = [],
): Promise<PreviewProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['out/preview-server/main.js', '--port', '0', '--no-open', '--json', ...args],
    { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<Record<string, string>> => {
    const next = await lines.next();
    if (next.done) throw new Error(`preview exited: ${stderr}`);
    return JSON.parse(next.value) as Record<string, string>;
  };
  const { url } = await nextLine();
  if (!url) throw new Error(`preview did not print its address: ${stderr}`);
  const origin = new URL(url).origin;
  const token = new URL(url).hash.replace('#token=', '');
  return {
    url,
    origin,
    invoke: async <T>(channel: string, body: unknown) => {
      const response = await fetch(`${origin}/__callbar/invoke/${channel}`, {
        method: 'POST',
        headers: { 'x-callbar-session': token, origin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await response.json()) as { ok: boolean; value: T };
    },
    nextOpenedUrl: async () => {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<never>((_, failed) => {
        timer = setTimeout(
          () =>
            failed(
              new Error(
                `the preview opened no address within ${OPENED_WAIT_MS / 1000} s; its stderr: ${stderr.slice(-2000) || '(none)'}`,
              ),
            ),
          OPENED_WAIT_MS,
        );
      });
      const { opened } = await Promise.race([nextLine(), waited]).finally(() =>
        clearTimeout(timer),
      );
      if (!opened) throw new Error('expected an opened address');
      return opened;
    },
    pressDialShortcut: (clipboard) => {
      child.stdin!.write(JSON.stringify({ shortcut: 'dial', clipboard }) + '\n');
    },
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
