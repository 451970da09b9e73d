/**
 * A small typed client of the simulator's control API (/__sim/), for tests and scripts:
 *
 *   const control = new SimControl(sim.base_url);
 *   const tokens = await control.issueTokens({ tenant_id: sim.tenant_id, user_extension: '201' });
 *   await control.addFault({ method: 'POST', path: '/v3/call_control/', reset: true, when: 'after', count: 1 });
 *   await control.advanceClock(86_400);
 */
import type { AuthFailureAnswer } from './auth-failure';
import type { Call } from './calls';
import type { IntegrationState, WebhookLog, WorldSummary } from './control-types';
import type { Fault, FaultSpec } from './faults';
import type { HostileDelivery, HostileDeliveriesInput, HostileLog } from './hostile-deliveries';
import type { HostileEventsInput, HostileTally } from './hostile-events';
import type { HostileSpec } from './hostile-platform';
import type {
  IntegrationOptions,
  RateLimit,
  RateScope,
  RuntimeConfig,
  AutoAnswer,
  CallControlResponse,
  CallEventDelivery,
  CallEventPayload,
  DeactivationTokens,
  NextLinks,
  OrderingTies,
  PageSizeAboveMax,
} from './options';
import type { LoggedRequest } from './request-log';
import type { TokenPair } from './tokens';

export type { Call, CallLeg, CallEvent } from './calls';
export type { IntegrationState, WebhookLog, WorldSummary } from './control-types';
export type { Fault, FaultSpec } from './faults';
export type { HostileEventsInput, HostileTally } from './hostile-events';
export type { LoggedRequest } from './request-log';
export type { TokenPair } from './tokens';
export type { WebhookDelivery } from './webhooks';
export type { ActivationRecord, HandshakeAttempt } from './integrations';

export interface UserRef {
  tenant_id: string;
  user_extension: string;
}

export interface ConfigPatch {
  callEventPayload?: CallEventPayload;
  tokenAnswerScope?: boolean;
  callControlResponse?: CallControlResponse;
  callControlForbiddenBody?: 'drf' | 'empty';
  autoAnswer?: boolean | Partial<AutoAnswer>;
  maxPageSize?: number;
  authFailure?: AuthFailureAnswer;
  uniqueNumberError?: 'field' | 'non_field_errors';
  activationCalls?: number;
  callEventDelivery?: CallEventDelivery;
  orderingTies?: OrderingTies;
  pageSizeAboveMax?: PageSizeAboveMax;
  nextLinks?: NextLinks;
  deactivationTokens?: DeactivationTokens;
}

/**
 * How long {@link SimControl.hostileEventsDone} waits at most. Thousands of events through a
 * receiver take seconds on a quiet machine and several times that beside a test suite's other
 * stages (over a minute in a CI run): a guard against a hang, not a measure of speed.
 */
export const HOSTILE_EVENTS_GUARD_MS = 5 * 60_000;

/** A control-API call that did not succeed: its status and (parsed) body. */
export class SimControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: HTTP ${status} ${JSON.stringify(body)}`);
    this.name = 'SimControlError';
  }
}

export class SimControl {
  private readonly root: string;

  constructor(baseUrl: string) {
    this.root = `${baseUrl.replace(/\/+$/, '')}/__sim/`;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const send = () =>
      fetch(`${this.root}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      });
    // A read is asked again once when the kept-alive connection it went out on had been closed
    // by the simulator meanwhile (a caller whose event loop was blocked, e.g. by spawnSync, past
    // the connection's idle timeout); a change is never sent twice.
    const response = await send().catch((error: unknown) => {
      if (method !== 'GET' || !closedConnection(error)) throw error;
      return send();
    });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!response.ok)
      throw new SimControlError(response.status, parsed, `${method} /__sim/${path}`);
    return parsed as T;
  }

  clock(): Promise<{ now: string }> {
    return this.call('GET', 'clock');
  }

  /** Moves simulated time forward (fires due timers: auto-answer, hangups, token expiry). */
  advanceClock(seconds: number): Promise<{ now: string }> {
    return this.call('POST', 'clock/advance', { seconds });
  }

  setClock(now: string | Date): Promise<{ now: string }> {
    return this.call('POST', 'clock/set', {
      now: typeof now === 'string' ? now : now.toISOString(),
    });
  }

  /** Issues a token pair for a user without the portal. */
  /** A pair for the user; with `slug`, it belongs to that integration (its deactivation revokes it). */
  issueTokens(user: UserRef & { slug?: string | null }): Promise<TokenPair> {
    return this.call('POST', 'tokens', user);
  }

  world(): Promise<WorldSummary> {
    return this.call('GET', 'world');
  }

  calls(): Promise<Call[]> {
    return this.call('GET', 'calls');
  }

  /** A call by its id or the id of one of its legs. */
  getCall(id: string): Promise<Call> {
    return this.call('GET', `calls/${encodeURIComponent(id)}`);
  }

  answerLeg(legId: string): Promise<Call> {
    return this.call('POST', `calls/${encodeURIComponent(legId)}/answer`);
  }

  endLeg(legId: string): Promise<Call> {
    return this.call('POST', `calls/${encodeURIComponent(legId)}/end`);
  }

  incomingCall(call: UserRef & { from: string }): Promise<Call> {
    return this.call('POST', 'calls/incoming', call);
  }

  addFault(spec: FaultSpec): Promise<Fault> {
    return this.call('POST', 'faults', spec);
  }

  faults(): Promise<Fault[]> {
    return this.call('GET', 'faults');
  }

  removeFault(id: string): Promise<void> {
    return this.call('DELETE', `faults/${encodeURIComponent(id)}`);
  }

  clearFaults(): Promise<void> {
    return this.call('DELETE', 'faults');
  }

  /** Makes the platform malicious or broken (see hostile-platform.ts); `clearHostile` ends it. */
  setHostile(spec: HostileSpec): Promise<{ kind: string }> {
    return this.call('POST', 'hostile', spec);
  }

  clearHostile(): Promise<void> {
    return this.call('DELETE', 'hostile');
  }

  requests(): Promise<LoggedRequest[]> {
    return this.call('GET', 'requests');
  }

  clearRequests(): Promise<void> {
    return this.call('DELETE', 'requests');
  }

  webhooks(): Promise<WebhookLog> {
    return this.call('GET', 'webhooks');
  }

  clearWebhooks(): Promise<void> {
    return this.call('DELETE', 'webhooks');
  }

  /** Sends hostile deliveries to the receiver (see hostile-deliveries.ts) and waits for their answers. */
  async hostileDeliveries(
    request: HostileDeliveriesInput,
    timeoutMs = 20_000,
  ): Promise<HostileDelivery[]> {
    const before = (await this.call<HostileLog>('GET', 'hostile/deliveries')).deliveries.length;
    await this.call('POST', 'hostile/deliveries', request);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const log = await this.call<HostileLog>('GET', 'hostile/deliveries');
      if (log.in_flight === 0) return log.deliveries.slice(before);
      if (Date.now() > deadline)
        throw new Error(`hostile deliveries still in flight after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Resolves once no webhook delivery is queued or in flight. */
  async webhooksSettled(timeoutMs = 5000): Promise<WebhookLog> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const log = await this.webhooks();
      if (log.in_flight === 0) return log;
      if (Date.now() > deadline)
        throw new Error(`webhook deliveries still in flight after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Starts forged legs or an event flood at the user's Webhook URLs (simulator/hostile-events.ts). */
  hostileEvents(attack: HostileEventsInput): Promise<HostileTally> {
    return this.call('POST', 'hostile/events', attack);
  }

  /** Resolves with the attack's tally once every event was answered (or could not be sent). */
  async hostileEventsDone(timeoutMs = HOSTILE_EVENTS_GUARD_MS): Promise<HostileTally> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const tally = await this.call<HostileTally | null>('GET', 'hostile/events');
      if (tally?.done) return tally;
      if (Date.now() > deadline)
        throw new Error(`hostile events still going after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  putIntegration(slug: string, registration: IntegrationOptions): Promise<IntegrationState> {
    return this.call('PUT', `integrations/${encodeURIComponent(slug)}`, registration);
  }

  integration(slug: string): Promise<IntegrationState> {
    return this.call('GET', `integrations/${encodeURIComponent(slug)}`);
  }

  integrations(): Promise<IntegrationState[]> {
    return this.call('GET', 'integrations');
  }

  /** Sets the limits of the given scopes and forgets the request history of all scopes. */
  setRateLimits(
    limits: Partial<Record<RateScope, RateLimit>>,
  ): Promise<Record<RateScope, RateLimit>> {
    return this.call('PUT', 'rate-limits', limits);
  }

  rateLimits(): Promise<Record<RateScope, RateLimit>> {
    return this.call('GET', 'rate-limits');
  }

  config(): Promise<RuntimeConfig> {
    return this.call('GET', 'config');
  }

  updateConfig(patch: ConfigPatch): Promise<RuntimeConfig> {
    return this.call('PATCH', 'config', patch);
  }
}

/** fetch's error for a connection the other side had closed before the request got an answer. */
function closedConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  return cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET';
}
