import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { completePortalFlow } from '../../simulator/portal-driver';

const root = join(import.meta.dirname, '../..');

export interface CliRun {
  /** Signals the process (e.g. SIGINT, as Ctrl+C does). */
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

/** Waits for the run to end; its whole stdout and stderr. */
export async function allOutput(
  run: CliRun,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const out: string[] = [];
  for await (const line of run.lines) out.push(line);
  const { code, stderr } = await run.exit;
  return { code, stdout: out.join('\n'), stderr };
}

/** `callbar ARGS` to completion. */
export function runCallbar(args: string[], env: NodeJS.ProcessEnv) {
  return allOutput(callbar(args, env));
}

/**
 * `callbar activate --no-browser --json ARGS`, its portal link completed (sign in, Subscribe) by
 * `user`, whoever that is; the browser's landing page fetched. The link and the run's output.
 */
export async function activateThroughCli(
  env: NodeJS.ProcessEnv,
  user: { username: string; password: string },
  args: string[] = [],
) {
  const run = callbar(['activate', '--no-browser', '--json', ...args], env);
  const first = await run.lines.next();
  const { portal_link } = JSON.parse(first.value as string) as { portal_link: string };
  const portal = await completePortalFlow(portal_link, { ...user, action: 'subscribe' });
  if (portal.location) await fetch(portal.location);
  return { portalLink: portal_link, ...(await allOutput(run)) };
}
