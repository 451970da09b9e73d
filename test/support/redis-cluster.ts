/**
 * A real Redis Cluster for the relay's tests: six Debian redis-server processes on loopback
 * ports (`--cluster-enabled yes`, the bus on a port of its own), joined by `redis-cli --cluster
 * create … --cluster-replicas 1` into three masters with a replica each. `killMaster()` ends a
 * master the way a crash does (SIGKILL): its replica is promoted after the node timeout (1 s);
 * `killAll()` ends every node.
 * One per test file: start it in beforeAll, stop it in afterAll.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { onFreePorts, redisServer } from './redis-server';
import { until } from './until';

const run = promisify(execFile);

export interface RunningCluster {
  /** host:port of every node (the seed list: RELAY_REDIS_CLUSTER_NODES). */
  readonly nodes: string[];
  /** Kills the master serving `slotOfKey` (SIGKILL) and waits until its replica took over. */
  killMaster(key: string): Promise<string>;
  /** host:port of the master serving `key` now. */
  masterOf(key: string): Promise<string>;
  /** Kills every node (SIGKILL): the whole cluster is gone. */
  killAll(): Promise<void>;
  stop(): Promise<void>;
}

const NODE_TIMEOUT_MS = 1000;

function launch(port: number, busPort: number, dir: string): Promise<ChildProcess> {
  return redisServer([
    '--port',
    String(port),
    '--cluster-port',
    String(busPort),
    '--bind',
    '127.0.0.1',
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    `nodes-${port}.conf`,
    '--cluster-node-timeout',
    String(NODE_TIMEOUT_MS),
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfilename',
    `append-${port}.aof`,
    '--appenddirname',
    `aof-${port}`,
    '--save',
    '',
  ]);
}

const cli = async (port: number, ...args: string[]) =>
  (await run('redis-cli', ['-p', String(port), ...args])).stdout;

export async function startRedisCluster(): Promise<RunningCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'callbar-redis-cluster-'));
  const ports: number[] = [];
  const children = new Map<number, ChildProcess>();
  // Each node on its own pair (client port, bus port), chosen again if either was taken meanwhile.
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      const { ports: pair, started } = await onFreePorts(2, ([port, bus]) =>
        launch(port!, bus!, dir),
      );
      ports.push(pair[0]!);
      children.set(pair[0]!, started);
    }),
  );
  const nodes = ports.map((port) => `127.0.0.1:${port}`);
  await run('redis-cli', [
    '--cluster',
    'create',
    ...nodes,
    '--cluster-replicas',
    '1',
    '--cluster-yes',
  ]);
  const running = (child: ChildProcess | undefined) =>
    child !== undefined && child.exitCode === null && child.signalCode === null;
  const alive = () => ports.filter((port) => running(children.get(port)));
  const healthy = () =>
    until('the cluster to be ok', async () => {
      for (const port of alive()) {
        if (!(await cli(port, 'cluster', 'info')).includes('cluster_state:ok')) return undefined;
      }
      return true;
    });
  await healthy();
  // Every master with a replica in sync (a master killed before would have none to promote).
  await until('every master replicated', async () => {
    const ranges = JSON.parse(await cli(ports[0]!, '--json', 'cluster', 'slots')) as unknown[][];
    if (ranges.length !== 3 || ranges.some((range) => range.length < 4)) return undefined;
    for (const port of ports) {
      const info = await cli(port, 'info', 'replication');
      if (info.includes('role:slave') && !info.includes('master_link_status:up')) return undefined;
    }
    return true;
  });
  /** The slot of `key`, and the port of its master as a live node sees it. */
  const masterPortOf = async (key: string) => {
    const port = alive()[0]!;
    const slot = (await cli(port, 'cluster', 'keyslot', key)).trim();
    // CLUSTER SHARDS would do; SLOTS is in every Redis 7: [start, end, [ip, port, id], …].
    const slots = (await cli(port, '--json', 'cluster', 'slots')).trim();
    const ranges = JSON.parse(slots) as [number, number, [string, number, string]][];
    const range = ranges.find(([start, end]) => Number(slot) >= start && Number(slot) <= end)!;
    return { slot, masterPort: range[2][1] };
  };
  const killAll = async () => {
    await Promise.all(
      [...children.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (!running(child)) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
  };
  return {
    nodes,
    masterOf: async (key) => `127.0.0.1:${(await masterPortOf(key)).masterPort}`,
    killMaster: async (key) => {
      const { slot, masterPort } = await masterPortOf(key);
      const child = children.get(masterPort)!;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
      await until('a replica promoted', async () => {
        for (const each of alive()) {
          const roles = await cli(each, '--json', 'cluster', 'slots');
          const now = (JSON.parse(roles) as [number, number, [string, number, string]][]).find(
            ([start, end]) => Number(slot) >= start && Number(slot) <= end,
          );
          if (!now || now[2][1] === masterPort) return undefined;
        }
        return true;
      });
      await healthy();
      return `127.0.0.1:${masterPort}`;
    },
    killAll,
    stop: async () => {
      await killAll();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
