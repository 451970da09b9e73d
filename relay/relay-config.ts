/**
 * The relay's configuration, from its environment (one schema, one message per bad variable):
 *
 * - RELAY_PORT (8090), RELAY_HOST (127.0.0.1: the reverse proxy in front terminates TLS)
 * - RELAY_REDIS_URL: redis://… shared by every node; unset, the embedded store (one node only)
 * - RELAY_PLATFORM_HEADERS: the platform's extra headers, "Name: value" lines, checked on each
 *   of its calls; RELAY_WEBHOOK_SECRET: otherwise the Webhook URL's last segment
 * - RELAY_DIAL_WINDOW_SECONDS (10): how far back the fallback for events that name nobody looks
 * - RELAY_TRUST_PROXY (false): take client addresses from X-Forwarded-For (behind the proxy)
 * - RELAY_RATE_BURST (200), RELAY_RATE_PER_SECOND (100): the token bucket per client address,
 *   shared by every node (in the store)
 */
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
  RELAY_PLATFORM_HEADERS: z.string().optional(),
  RELAY_WEBHOOK_SECRET: z.string().min(24, 'must be at least 24 characters').optional(),
  RELAY_DIAL_WINDOW_SECONDS: z.coerce.number().min(1).max(120).default(10),
  RELAY_TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  RELAY_RATE_BURST: z.coerce.number().int().min(1).default(200),
  RELAY_RATE_PER_SECOND: z.coerce.number().positive().default(100),
});

export interface RelayConfig {
  port: number;
  host: string;
  redisUrl: string | undefined;
  platformHeaders: Record<string, string>;
  webhookSecret: string | undefined;
  dialWindowMs: number;
  trustProxy: boolean;
  rate: Rate;
}

/** The configuration in `env`; throws an Error naming each bad variable. */
export function relayConfig(env: NodeJS.ProcessEnv): RelayConfig {
  const result = RelayEnv.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`The relay's environment is not valid:\n${lines.join('\n')}`);
  }
  const value = result.data;
  return {
    port: value.RELAY_PORT,
    host: value.RELAY_HOST,
    redisUrl: value.RELAY_REDIS_URL,
    platformHeaders: parseHeaderList(value.RELAY_PLATFORM_HEADERS, 'RELAY_PLATFORM_HEADERS'),
    webhookSecret: value.RELAY_WEBHOOK_SECRET,
    dialWindowMs: value.RELAY_DIAL_WINDOW_SECONDS * 1000,
    trustProxy: value.RELAY_TRUST_PROXY === 'true',
    rate: { burst: value.RELAY_RATE_BURST, perSecond: value.RELAY_RATE_PER_SECOND },
  };
}
