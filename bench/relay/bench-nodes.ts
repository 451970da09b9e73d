/**
 * Two relay nodes as an administrator runs them (`npm run relay`: relay/main.ts processes) on one
 * store, each on a port of its own that it keeps across a restart (the desktops' addresses stay
 * the same, as behind a proxy): SIGKILLed (a crash), SIGTERMed (the drain of a rolling update),
 * started again, and their resident memory.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import buildCli from '../../test/support/build-cli';
import { freePort } from '../../test/support/free-port';
import { relayProcess, type RelayProcess } from '../../test/support/relay-process';

export interface BenchNodes {
  /** http://127.0.0.1:PORT of node 0 and node 1. */
  origins: [string, string];
  /** The node's process ends at once (SIGKILL). */
  kill(index: number): Promise<void>;
  /** The node drains (SIGTERM) and exits by itself. */
  drain(index: number): Promise<Drained>;
  /** The node (stopped) starts again on its port. */
  restart(index: number): Promise<void>;
  /** Resident memory of both processes together, in bytes. */
  rss(): number;
  stop(): Promise<void>;
}

/** A drained node's exit: its code, and what its own last log line says of it. */
export interface Drained {
  code: number | null;
  /** SIGTERM → the node's exit decision, on the node's clock (`relay exits`); NaN if unsaid. */
  nodeSeconds: number;
  /** Whether the node's 9.5 s guard decided the exit (its drain had not finished). */
  byDeadline: boolean | undefined;
}

/** The node's `relay exits` line (relay/main.ts) in its log, read. */
export function drainedFrom(code: number | null, stderr: string): Drained {
  const line = stderr
    .split('\n')
    .reverse()
    .find((text) => text.includes('"relay exits"'));
  try {
    const entry = JSON.parse(line ?? '') as { after_ms?: unknown; deadline?: unknown };
    return {
      code,
      nodeSeconds: typeof entry.after_ms === 'number' ? entry.after_ms / 1000 : NaN,
      byDeadline: typeof entry.deadline === 'boolean' ? entry.deadline : undefined,
    };
  } catch {
    return { code, nodeSeconds: NaN, byDeadline: undefined };
  }
}

/** A process's resident memory (Linux), in bytes; NaN elsewhere. */
export function rssOf(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
  } catch {
    return NaN;
  }
}

/** The relay as `npm run relay` starts it (out/relay), built from the current sources once. */
let built = false;
function buildRelay(): void {
  if (!built) buildCli();
  built = true;
}

export async function startBenchNodes(env: NodeJS.ProcessEnv): Promise<BenchNodes> {
  buildRelay();
  const ports = [await freePort(), await freePort()];
  const nodes: RelayProcess[] = [];
  // Each start's log (info: a line per request, as an administrator runs it) in a file of its
  // own, as an administrator's goes to the journal or a file: through a pipe read by this busy
  // process, the backlog grew in the node's memory and its `relay exits` line was lost at 10,000
  // devices (the exit deadline came before the pipe took it). Only its last 256 KiB is read back.
  const logs = mkdtempSync(join(tmpdir(), 'callbar-relay-bench-'));
  let starts = 0;
  const start = async (index: number) => {
    const node = relayProcess(
      [],
      { ...env, RELAY_PORT: String(ports[index]) },
      256 * 1024,
      join(logs, `node-${index}-${++starts}.log`),
    );
    nodes[index] = node;
    await Promise.race([
      node.listening,
      node.exit.then((exit) => {
        throw new Error(`a relay node exited while starting:\n${exit.stderr}`);
      }),
    ]);
  };
  const running = (node: RelayProcess | undefined) =>
    node !== undefined && node.child.exitCode === null && node.child.signalCode === null;
  // One after the other: two tsx starts at once are slow on a loaded machine.
  await start(0);
  await start(1);
  return {
    origins: ports.map((port) => `http://127.0.0.1:${port}`) as [string, string],
    kill: async (index) => {
      nodes[index]!.child.kill('SIGKILL');
      await nodes[index]!.exit;
    },
    drain: async (index) => {
      nodes[index]!.child.kill('SIGTERM');
      const { code, stderr } = await nodes[index]!.exit;
      return drainedFrom(code, stderr);
    },
    restart: (index) => start(index),
    rss: () => nodes.reduce((sum, node) => sum + rssOf(node.child.pid), 0),
    stop: async () => {
      for (const node of nodes) if (running(node)) node.child.kill('SIGKILL');
      await Promise.all(nodes.map((node) => node.exit));
      rmSync(logs, { recursive: true, force: true });
    },
  };
}
