/**
 * The two Redis set-ups the relay bench compares in one run, started as the relay's tests start
 * them (test/support): one redis-server, and a Redis Cluster of three masters with a replica each
 * (`redis-cli --cluster create … --cluster-replicas 1`). Each gives the relay's environment for
 * it, the store target, the memory Redis holds (`used_memory` of the server, or summed over the
 * cluster's masters: the replicas hold a copy of the same again), and, for the cluster, a master's
 * failover (SIGKILL, its replica promoted).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { RedisTarget } from '../../relay/redis-store';
import { startRedisCluster } from '../../test/support/redis-cluster';
import { startRedis } from '../../test/support/redis-server';

const run = promisify(execFile);

export type RedisKind = 'standalone' | 'cluster';

export interface BenchRedis {
  kind: RedisKind;
  /** RELAY_REDIS_URL or RELAY_REDIS_CLUSTER_NODES. */
  env: NodeJS.ProcessEnv;
  target: RedisTarget;
  /** Bytes Redis holds (`used_memory`): the server's, or the sum over the cluster's masters. */
  usedMemory(): Promise<number>;
  /** The cluster only: kills the master serving `key` (SIGKILL) until its replica took over. */
  failover?: (key: string) => Promise<void>;
  stop(): Promise<void>;
}

/** `INFO` of the server at `port`, as name → value; undefined when it does not answer. */
async function info(port: string): Promise<Map<string, string> | undefined> {
  try {
    const { stdout } = await run('redis-cli', ['-p', port, 'info'], { timeout: 5000 });
    return new Map(
      stdout
        .split(/\r?\n/)
        .filter((line) => line.includes(':') && !line.startsWith('#'))
        .map((line) => {
          const at = line.indexOf(':');
          return [line.slice(0, at), line.slice(at + 1)] as [string, string];
        }),
    );
  } catch {
    return undefined;
  }
}

/** Sum of `used_memory` over the servers at `ports` that answer as masters. */
async function mastersMemory(ports: string[]): Promise<number> {
  let sum = 0;
  for (const port of ports) {
    const fields = await info(port);
    if (fields?.get('role') === 'master') sum += Number(fields.get('used_memory') ?? 0);
  }
  return sum;
}

export async function startBenchRedis(kind: RedisKind): Promise<BenchRedis> {
  if (kind === 'standalone') {
    const redis = await startRedis();
    const port = new URL(redis.url).port;
    return {
      kind,
      env: { RELAY_REDIS_URL: redis.url },
      target: redis.url,
      usedMemory: () => mastersMemory([port]),
      stop: () => redis.stop(),
    };
  }
  const cluster = await startRedisCluster();
  const ports = cluster.nodes.map((node) => node.split(':')[1]!);
  return {
    kind,
    env: { RELAY_REDIS_CLUSTER_NODES: cluster.nodes.join(',') },
    target: { cluster: cluster.nodes },
    usedMemory: () => mastersMemory(ports),
    failover: async (key) => {
      await cluster.killMaster(key);
    },
    stop: () => cluster.stop(),
  };
}
