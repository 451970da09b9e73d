/**
 * The relay's configuration, from its environment (one schema, one message per bad variable):
 *
 * - RELAY_PORT (8090), RELAY_HOST (127.0.0.1: the reverse proxy in front terminates TLS)
 * - RELAY_REDIS_URL: redis://… shared by every node; RELAY_REDIS_CLUSTER_NODES: host:port,… seed
 *   nodes of a Redis Cluster instead; neither, the embedded store (one node only)
 * - RELAY_PLATFORM_HEADERS: the platform's extra headers, "Name: value" lines, checked on each
 *   of its calls; RELAY_WEBHOOK_SECRET: the last segment of all three of its addresses. One of
 *   them at least (platform-auth.ts)
 * - RELAY_DIAL_WINDOW_SECONDS (10): how far back the fallback for events that name nobody looks
 * - RELAY_TRUST_PROXY (none): the reverse proxies' addresses (IP or CIDR, comma-separated) whose
 *   X-Forwarded-For is believed; never `true` or a hop count (a client would choose its address)
 * - RELAY_RATE_BURST (200), RELAY_RATE_PER_SECOND (100): the token bucket per client address,
 *   shared by every node (in the store)
 * - RELAY_WAITS_PER_ADDRESS (20), RELAY_WAITS_TOTAL (2000): activation waits a client address
 *   may keep registered (all nodes) and hold open (each node); the same in total
 * - RELAY_CONNECTIONS_PER_ADDRESS (256): connections a client address may hold open on a node
 *   (its streams among them; a configured proxy's are not counted)
 * - RELAY_STREAMS_PER_DEVICE (4): streams one device may hold open on a node; a new one closes
 *   the device's oldest (device-routes.ts)
 * - RELAY_METRICS_PORT: Prometheus metrics at GET /metrics on this port (on RELAY_HOST); unset,
 *   none
 * - RELAY_LOG_LEVEL (info): JSON log lines on stderr (fatal, error, warn, info, debug, trace,
 *   silent)
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import type { Rate } from '../src-main/core/calls/token-bucket';
import { parseHeaderList } from '../src-main/core/http/header-list';

export const RelayEnv = z.object({
  RELAY_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  RELAY_HOST: z.string().min(1).default('127.0.0.1'),
  RELAY_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  RELAY_REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, 'must be host:port,host:port,…')
    .optional(),
  RELAY_PLATFORM_HEADERS: z.string().optional(),
  RELAY_WEBHOOK_SECRET: z
    .string()
    .min(24, 'must be at least 24 characters')
    .regex(/^[A-Za-z0-9._~-]+$/, 'may hold only letters, digits and . _ ~ - (it ends a URL path)')
    .optional(),
  RELAY_DIAL_WINDOW_SECONDS: z.coerce.number().min(1).max(120).default(10),
  RELAY_TRUST_PROXY: z
    .string()
    .default('')
    .refine((value) => !/^\s*(true|\d+)\s*$/i.test(value), {
      message:
        'must list the reverse proxies’ addresses (e.g. 127.0.0.1 or 10.0.0.0/8), not true or a hop count: either would let a client choose its own address',
    })
    .refine((value) => proxyList(value).every(isProxyAddress), {
      message: 'must be IP addresses or CIDR ranges separated by commas (or false)',
    }),
  RELAY_RATE_BURST: z.coerce.number().int().min(1).default(200),
  RELAY_RATE_PER_SECOND: z.coerce.number().positive().default(100),
  RELAY_WAITS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(20),
  RELAY_WAITS_TOTAL: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  RELAY_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(256),
  RELAY_STREAMS_PER_DEVICE: z.coerce.number().int().min(1).max(10_000).default(4),
  RELAY_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  RELAY_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
});

/** The proxies of RELAY_TRUST_PROXY (`false` or empty: none). */
function proxyList(value: string): string[] {
  if (/^\s*false\s*$/i.test(value)) return [];
  return value
    .split(',')
    .map((each) => each.trim())
    .filter(Boolean);
}

/** An IP address, or one with a prefix length (CIDR). */
function isProxyAddress(value: string): boolean {
  const [address = '', prefix, extra] = value.split('/');
  if (extra !== undefined || isIP(address) === 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (isIP(address) === 4 ? 32 : 128);
}

/** How many activation waits clients may keep and hold (see RELAY_WAITS_*). */
export interface WaitCaps {
  perAddress: number;
  total: number;
}

export interface RelayConfig {
  port: number;
  host: string;
  redisUrl: string | undefined;
  /** Seed nodes of a Redis Cluster (host:port). */
  redisCluster: string[] | undefined;
  platformHeaders: Record<string, string>;
  webhookSecret: string | undefined;
  dialWindowMs: number;
  /** The reverse proxies whose X-Forwarded-For is believed (IP or CIDR); empty: none. */
  trustProxy: string[];
  rate: Rate;
  waits: WaitCaps;
  /** Connections a client may hold open on a node (connection-guard.ts). */
  connections: { perClient: number };
  /** Streams a device may hold open on a node (device-routes.ts). */
  streamsPerDevice: number;
  metricsPort: number | undefined;
  logLevel: string;
}

/** The configuration in `env`; throws an Error naming each bad variable. */
export function relayConfig(env: NodeJS.ProcessEnv): RelayConfig {
  const result = RelayEnv.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`The relay's environment is not valid:\n${lines.join('\n')}`);
  }
  const value = result.data;
  if (value.RELAY_REDIS_URL && value.RELAY_REDIS_CLUSTER_NODES) {
    throw new Error(
      "The relay's environment is not valid:\nRELAY_REDIS_URL and RELAY_REDIS_CLUSTER_NODES: set one of them.",
    );
  }
  const platformHeaders = parseHeaderList(value.RELAY_PLATFORM_HEADERS, 'RELAY_PLATFORM_HEADERS');
  return {
    port: value.RELAY_PORT,
    host: value.RELAY_HOST,
    redisUrl: value.RELAY_REDIS_URL,
    redisCluster: value.RELAY_REDIS_CLUSTER_NODES?.split(','),
    platformHeaders,
    webhookSecret: value.RELAY_WEBHOOK_SECRET,
    dialWindowMs: value.RELAY_DIAL_WINDOW_SECONDS * 1000,
    trustProxy: proxyList(value.RELAY_TRUST_PROXY),
    rate: { burst: value.RELAY_RATE_BURST, perSecond: value.RELAY_RATE_PER_SECOND },
    waits: { perAddress: value.RELAY_WAITS_PER_ADDRESS, total: value.RELAY_WAITS_TOTAL },
    connections: { perClient: value.RELAY_CONNECTIONS_PER_ADDRESS },
    streamsPerDevice: value.RELAY_STREAMS_PER_DEVICE,
    metricsPort: value.RELAY_METRICS_PORT,
    logLevel: value.RELAY_LOG_LEVEL,
  };
}
