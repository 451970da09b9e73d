/**
 * Relay nodes that share one real redis-server (started here, on a free loopback port), as a
 * deployment of several nodes does: each node its own Redis store, all with the same options.
 */
import { redisStore } from '../../relay/redis-store';
import type { RelayOptions } from '../../relay/relay-context';
import { startRelay, type RunningRelay } from '../../relay/relay-server';
import type { RelayStore } from '../../relay/relay-store';
import { silentLogger } from '../../src-main/core/log/logger';
import { startRedis, type RunningRedis } from './redis-server';

export interface RelayNodes {
  redis: RunningRedis;
  /** Each node's store, in the order of `nodes`. */
  stores: RelayStore[];
  nodes: RunningRelay[];
  /** Closes the nodes, their stores and the redis-server. */
  close(): Promise<void>;
}

export async function startRelayNodes(
  count: number,
  options: Omit<RelayOptions, 'store' | 'log'>,
): Promise<RelayNodes> {
  const redis = await startRedis();
  const stores: RelayStore[] = [];
  const nodes: RunningRelay[] = [];
  for (let index = 0; index < count; index += 1) {
    const store = redisStore(redis.url, silentLogger);
    stores.push(store);
    nodes.push(await startRelay({ port: 0, store, log: silentLogger, ...options }));
  }
  return {
    redis,
    stores,
    nodes,
    close: async () => {
      for (const node of nodes) await node.close();
      for (const store of stores) await store.close();
      await redis.stop();
    },
  };
}
