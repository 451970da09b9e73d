/**
 * Relay nodes that share one real redis-server (started here, on a free loopback port), as a
 * deployment of several nodes does: each node its own Redis store, all with the same options.
 */
import { redisStore } from '../../relay/redis-store';
import type { RelayOptions } from '../../relay/relay-context';
import { startRelay, type RunningRelay } from '../../relay/relay-server';
import type { RelayStore } from '../../relay/relay-store';
import { silentLogger, type Logger } from '../../src-main/core/log/logger';
import { startRedis, type RunningRedis } from './redis-server';

export interface RelayNodes {
  redis: RunningRedis;
  /** Each node's store, in the order of `nodes`. */
  stores: RelayStore[];
  nodes: RunningRelay[];
  /** Closes the nodes, their stores and the redis-server. */
  close(): Promise<void>;
}

/** A node's options; `log` is the node's and its store's (silent unless given). */
export type RelayNodeOptions = Omit<RelayOptions, 'store' | 'log'> & { log?: Logger };

/** `count` nodes, each with `options` (or the options for its index: its own metrics). */
export async function startRelayNodes(
  count: number,
  options: RelayNodeOptions | ((index: number) => RelayNodeOptions),
): Promise<RelayNodes> {
  const redis = await startRedis();
  const stores: RelayStore[] = [];
  const nodes: RunningRelay[] = [];
  for (let index = 0; index < count; index += 1) {
    const { log = silentLogger, ...rest } =
      typeof options === 'function' ? options(index) : options;
    const store = redisStore(redis.url, log);
    stores.push(store);
    nodes.push(await startRelay({ port: 0, store, log, ...rest }));
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
