import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import type { CliIo } from '../../src-main/cli/cli-io';
import { completePortalFlow } from '../../simulator/portal-driver';

const root = join(import.meta.dirname, '../..');

/**
 * One run of `callbar`: a real process of the bin ({@link callbar}), or the CLI run inside the
 * test's own process ({@link callbarInProcess}).
 */
export interface CliRun {
  /** Signals the process (e.g. SIGINT, as Ctrl+C does); a process's only. */
  kill(signal?: NodeJS.Signals): void;
  lines: AsyncIterableIterator<string>;
  exit: Promise<{ code: number | null; stderr: string }>;
  /** What it wrote to stderr so far. */
  stderr(): string;
}

/**
 * The CLI speaks the language of LC_ALL / LC_MESSAGES / LANG: English for every test, whatever
 * the machine's, unless a test sets one (empty counts as unset).
 */
const ENGLISH: NodeJS.ProcessEnv = { LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

/** Runs the real `callbar` bin (as a user would) with extra environment. */
export function callbar(args: string[], env: NodeJS.ProcessEnv): CliRun {
  const child = spawn(process.execPath, [join(root, 'bin/callbar.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, ...ENGLISH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr })),
  );
  return {
    kill: (signal = 'SIGTERM') => void child.kill(signal),
    lines,
    exit,
    stderr: () => stderr,
  };
}

/**
 * `callbar ARGS` run inside the test's process: the CLI's runCli (from the sources, as the bin
 * runs it) with this environment, its stdout and stderr captured, no terminal and no signals.
 * The same run as {@link callbar}'s (stdout line by line, stderr, the exit code) without starting
 * Node and the CLI's bundle again (0.2–0.4 CPU-s each): for tests of what a command does. A test
 * of the process itself (signals, two processes at once, the bin's exit, stdin, anything a fresh
 * process's module state decides) runs the bin.
 */
export function callbarInProcess(args: string[], env: NodeJS.ProcessEnv): CliRun {
  const stdout = new PassThrough();
  let stderr = '';
  const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  const io: CliIo = {
    out: (text) => void stdout.write(line(text)),
    err: (text) => void (stderr += line(text)),
    async write(text) {
      if (!stdout.write(text)) await once(stdout, 'drain');
    },
  };
  // Read as the bin's pipe is read (readline's line breaks).
  const lines = createInterface({ input: stdout })[Symbol.asyncIterator]();
  const exit = (async () => {
    try {
      const { runCli } = await import('../../src-main/cli/run-cli');
      const code = await runCli(args, {
        io,
        env: { ...process.env, ...ENGLISH, ...env },
        entry: join(root, 'bin/callbar.mjs'),
        signals: false,
      });
      return { code, stderr };
    } catch (error) {
      // What would end the process: its stack on stderr, exit 1.
      stderr += `${(error as Error).stack ?? String(error)}\n`;
      return { code: 1, stderr };
    } finally {
      stdout.end();
    }
  })();
  return {
    kill: () => {
      throw new Error('A run inside the test takes no signals: run the bin (callbar) for that.');
    },
    lines,
    exit,
    stderr: () => stderr,
  };
}

/** Waits for the run to end; its whole stdout and stderr. */
export async function allOutput(
  run: CliRun,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const out: string[] = [];
  for await (const line of run.lines) out.push(line);
  const { code, stderr } = await run.exit;
  return { code, stdout: out.join('\n'), stderr };
}

/** `callbar ARGS` to completion (the bin's process). */
export function runCallbar(args: string[], env: NodeJS.ProcessEnv) {
  return allOutput(callbar(args, env));
}

/** `callbar ARGS` to completion, inside the test's process ({@link callbarInProcess}). */
export function runCallbarInProcess(args: string[], env: NodeJS.ProcessEnv) {
  return allOutput(callbarInProcess(args, env));
}

/**
 * `callbar activate --no-browser --json ARGS`, its portal link completed (sign in, Subscribe) by
 * `user`, whoever that is; the browser's landing page fetched. The link and the run's output.
 * The bin's process, or `start` (e.g. {@link callbarInProcess}).
 */
export async function activateThroughCli(
  env: NodeJS.ProcessEnv,
  user: { username: string; password: string },
  args: string[] = [],
  start: typeof callbar = callbar,
) {
  const run = start(['activate', '--no-browser', '--json', ...args], env);
  const first = await run.lines.next();
  const { portal_link } = JSON.parse(first.value as string) as { portal_link: string };
  const portal = await completePortalFlow(portal_link, { ...user, action: 'subscribe' });
  if (portal.location) await fetch(portal.location);
  return { portalLink: portal_link, ...(await allOutput(run)) };
}
