/**
 * Everything the simulated platform holds, handed to the parts that serve it (REST API, token
 * endpoint, portal, control API).
 */
import type { CallEngine } from './calls';
import type { SimClock } from './clock';
import type { FaultTable } from './faults';
import type { HostileEvents } from './hostile-events';
import type { HostileBehaviour } from './hostile-platform';
import type { IntegrationRegistry } from './integrations';
import type { RuntimeConfig } from './options';
import type { RateLimiter } from './rate-limit';
import type { RequestLog } from './request-log';
import type { TokenStore } from './tokens';
import type { WebhookDispatcher } from './webhooks';
import type { World } from './world';

export interface Platform {
  world: World;
  clock: SimClock;
  tokens: TokenStore;
  rateLimiter: RateLimiter;
  integrations: IntegrationRegistry;
  calls: CallEngine;
  webhooks: WebhookDispatcher;
  /** Forged legs and event floods on demand (the control API's /__sim/hostile/events). */
  hostileEvents: HostileEvents;
  faults: FaultTable;
  /** A malicious or broken platform on demand (none by default). */
  hostile: HostileBehaviour;
  requestLog: RequestLog;
  config: RuntimeConfig;
  /** The simulator's own origin (its base URL), known once it listens; page links use it. */
  origin: string;
  clientId: string;
  clientSecret: string;
  timeZone: string;
  integratorTimeoutMs: number;
  /** Aborted when the simulator closes: cancels outgoing calls and pending delays. */
  signal: AbortSignal;
  log: (line: string) => void;
}
