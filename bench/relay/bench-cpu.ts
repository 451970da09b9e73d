/**
 * Where the relay bench's CPU goes (Linux): the CPU time (user + system, from /proc) of this
 * process (the light devices, the platform's POSTs, the cores, the simulator), of the relay nodes
 * and of the redis-servers (its child processes, by name) over a phase, per event of the phase.
 * On a machine shared with other work the latencies vary with the load; these figures much less.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface CpuPerEvent {
  /** This process: 10,000 light devices, the platform's POSTs, the cores. */
  bench: number;
  /** The relay nodes together. */
  relay: number;
  /** The redis-servers together. */
  redis: number;
}

type Kind = keyof CpuPerEvent;

/** CPU seconds of process `pid` so far, and its parent and name; undefined once it is gone. */
function stat(pid: number): { seconds: number; parent: number; name: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const name = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { seconds: ticks / 100, parent: Number(fields[1]), name };
  } catch {
    return undefined;
  }
}

/** The machine's process ids (none where /proc is not). */
function processes(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds so far of this process and of its children that are relay nodes or Redis. */
function cpuNow(): Map<number, { kind: Kind; seconds: number }> {
  const found = new Map<number, { kind: Kind; seconds: number }>();
  const own = stat(process.pid);
  if (own) found.set(process.pid, { kind: 'bench', seconds: own.seconds });
  for (const pid of processes()) {
    const each = stat(pid);
    if (!each || each.parent !== process.pid) continue;
    const kind =
      each.name === 'redis-server' ? 'redis' : each.name === 'node' ? 'relay' : undefined;
    if (kind) found.set(pid, { kind, seconds: each.seconds });
  }
  return found;
}

/** Starts counting; `per(events)` gives the CPU milliseconds per event since. */
export function cpuMeter(): { per(events: number): CpuPerEvent } {
  const before = cpuNow();
  return {
    per: (events) => {
      const spent: CpuPerEvent = { bench: 0, relay: 0, redis: 0 };
      for (const [pid, now] of cpuNow()) {
        spent[now.kind] += now.seconds - (before.get(pid)?.seconds ?? 0);
      }
      const ms = (seconds: number) => Number(((seconds * 1000) / Math.max(1, events)).toFixed(2));
      return { bench: ms(spent.bench), relay: ms(spent.relay), redis: ms(spent.redis) };
    },
  };
}
