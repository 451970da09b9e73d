/**
 * Two relay nodes as an administrator runs them (`npm run relay`: relay/main.ts processes) on one
 * store, each on a port of its own that it keeps across a restart (the desktops' addresses stay
 * the same, as behind a proxy): SIGKILLed (a crash), SIGTERMed (the drain of a rolling update),
 * started again, and their resident memory.
 */
import { readFileSync } from 'node:fs';
import { freePort } from '../../test/support/free-port';
import { relayProcess, type RelayProcess } from '../../test/support/relay-process';

export interface BenchNodes {
  /** http://127.0.0.1:PORT of node 0 and node 1. */
  origins: [string, string];
  /** The node's process ends at once (SIGKILL). */
  kill(index: number): Promise<void>;
  /** The node drains (SIGTERM) and exits by itself; its exit code. */
  drain(index: number): Promise<number | null>;
  /** The node (stopped) starts again on its port. */
  restart(index: number): Promise<void>;
  /** Resident memory of both processes together, in bytes. */
  rss(): number;
  stop(): Promise<void>;
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

export async function startBenchNodes(env: NodeJS.ProcessEnv): Promise<BenchNodes> {
  const ports = [await freePort(), await freePort()];
  const nodes: RelayProcess[] = [];
  const start = async (index: number) => {
    // Its log (info: a line per request, as an administrator runs it) only to its last 256 KiB.
    const node = relayProcess([], { ...env, RELAY_PORT: String(ports[index]) }, 256 * 1024);
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
      return (await nodes[index]!.exit).code;
    },
    restart: (index) => start(index),
    rss: () => nodes.reduce((sum, node) => sum + rssOf(node.child.pid), 0),
    stop: async () => {
      for (const node of nodes) if (running(node)) node.child.kill('SIGKILL');
      await Promise.all(nodes.map((node) => node.exit));
    },
  };
}
