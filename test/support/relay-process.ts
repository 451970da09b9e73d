/**
 * The relay as an administrator runs it (`npm run relay`: bin/relay.mjs, the relay built into
 * out/relay by the tests' global setup, test/support/build-cli.ts), as a child process: one
 * process, so a SIGKILL kills the relay itself, not a wrapper. The caller stops what it started
 * (`child`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from './until';

const root = join(import.meta.dirname, '../..');

export interface RelayProcess {
  child: ChildProcess;
  /** Settles when the process exited and its output was read, with its exit code and output. */
  exit: Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Settles once a serving relay says it listens. */
  listening: Promise<true>;
  /** Its log (stderr) so far (a failure says what the node said). */
  log: () => string;
}

/**
 * `npm run relay -- ARGS` with `env` (e.g. RELAY_PORT, RELAY_REDIS_URL, RELAY_WEBHOOK_SECRET).
 * `keep` bounds the output kept to its last so many characters (a bench's node logs every
 * request for minutes). With `logFile`, the node's log (stderr) goes to that file, as an
 * administrator's does, instead of a pipe this process reads: behind a busy reader, a pipe's
 * backlog grows in the node's memory and its last lines (`relay exits`) are lost when its exit
 * deadline comes first; a file takes each line at once. `stderr` is then the file's end.
 */
export function relayProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  keep = Infinity,
  logFile?: string,
): RelayProcess {
  const logFd = logFile === undefined ? undefined : openSync(logFile, 'a');
  const child = spawn(process.execPath, [join(root, 'bin/relay.mjs'), ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', logFd ?? 'pipe'],
  });
  if (logFd !== undefined) closeSync(logFd);
  let stdout = '';
  let piped = '';
  const kept = (text: string) => (text.length > keep ? text.slice(-keep) : text);
  const stderr = () => (logFile === undefined ? piped : kept(readFileSync(logFile, 'utf8')));
  child.stdout?.on('data', (chunk: Buffer) => (stdout = kept(stdout + chunk.toString())));
  let heard = false;
  child.stderr?.on('data', (chunk: Buffer) => {
    piped = kept(piped + chunk.toString());
    heard ||= piped.includes('relay listening');
  });
  // Once its output is read to the end ('close'): at 'exit' the last of it may still be in the
  // pipes.
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr: stderr() })),
  );
  const listening = until('the relay to listen', () =>
    heard || (logFile !== undefined && stderr().includes('relay listening')) ? true : undefined,
  );
  // A relay that is never asked to listen (devices list/revoke) must not leave this rejected.
  listening.catch(() => undefined);
  return { child, exit, listening, log: stderr };
}
