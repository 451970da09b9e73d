/**
 * The platform simulator: a real HTTP server implementing the whole platform contract (portal,
 * token endpoint, phonebooks, contacts, call control, call events, rate limits) plus a test-only
 * control API (clock, faults, request log, …). See simulator/README.md.
 *
 *   const sim = await startSimulator({ contacts: 20, autoAnswer: false });
 *   … sim.base_url, sim.portal_url, sim.client_id, sim.client_secret, sim.tenant_id, sim.users …
 *   await sim.close();
 */
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { CallEngine } from './calls';
import { SimClock } from './clock';
import { ControlApi } from './control-api';
import { FaultTable } from './faults';
import { HostileBehaviour } from './hostile-platform';
import { IntegrationRegistry, isValidSlug } from './integrations';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  PROFILE_CHOICES,
  resolveAutoAnswer,
  SIM_PROFILES,
  type RuntimeConfig,
  type SimProfile,
  type SimulatorOptions,
} from './options';
import type { Platform } from './platform';
import { Portal } from './portal';
import { SeededRandom } from './random';
import { RateLimiter } from './rate-limit';
import { RequestLog } from './request-log';
import { buildWorld, MAIN_TENANT_ID } from './seed-data';
import { createSimServer } from './server';
import { assertTimeZone } from './timestamps';
import { keepState } from './state-file';
import { TokenStore } from './tokens';
import { WebhookDispatcher } from './webhooks';
import { HostileEvents } from './hostile-events';

export type {
  AutoAnswer,
  CallControlResponse,
  CallEventPayload,
  SimProfile,
  Encoding,
  IntegrationOptions,
  RateLimit,
  RateScope,
  SimulatorOptions,
} from './options';
export type { CallEvent } from './calls';
export { PROFILE_CHOICES, SIM_PROFILES, SUITE_PROFILES } from './options';
export { MAIN_TENANT_ID, SECOND_TENANT_ID } from './seed-data';

export interface SimulatorUser {
  extension: string;
  username: string;
  password: string;
}

/** What the simulator tells its users (the CLI prints it as one JSON line). */
export interface SimulatorInfo {
  base_url: string;
  portal_url: string;
  client_id: string;
  client_secret: string;
  tenant_id: string;
  /** What it does where the contract says "not shown" (see SimProfile). */
  profile: SimProfile;
  users: SimulatorUser[];
}

export interface RunningSimulator extends SimulatorInfo {
  /**
   * The platform's clock, for a client in the same process that should wait in the platform's
   * time (it is a core Clock: `now`, `sleep`); moved by the control API's clock/advance and set.
   */
  clock: Pick<SimClock, 'now' | 'sleep'>;
  close(): Promise<void>;
}

function validateOptions(options: SimulatorOptions): void {
  if (options.profile !== undefined && !SIM_PROFILES.includes(options.profile))
    throw new RangeError(
      `unknown profile "${String(options.profile)}" (${SIM_PROFILES.join(' or ')})`,
    );
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new RangeError(`invalid port ${port}`);
  if (
    options.maxPageSize !== undefined &&
    (!Number.isInteger(options.maxPageSize) || options.maxPageSize < 1)
  ) {
    throw new RangeError('maxPageSize must be a positive integer');
  }
  if (options.seed !== undefined && !Number.isFinite(options.seed))
    throw new RangeError('seed must be a number');
  for (const slug of Object.keys(options.integrations ?? {})) {
    if (!isValidSlug(slug)) throw new RangeError(`invalid integration slug "${slug}"`);
  }
  assertTimeZone(options.timeZone ?? 'Europe/Berlin');
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  validateOptions(options);
  const log = options.log ?? (() => undefined);
  const profile = options.profile ?? 'rich';
  const choices = PROFILE_CHOICES[profile];
  const seed = options.seed ?? 1;
  const world = buildWorld(seed, options.contacts ?? 200);
  const clock = new SimClock((error) => log(`timer failed: ${String(error)}`));
  const closing = new AbortController();
  const integrations = new IntegrationRegistry(choices.integratorEncoding);
  for (const [slug, registration] of Object.entries(options.integrations ?? {})) {
    integrations.register(slug, registration);
  }
  const config: RuntimeConfig = {
    profile,
    callEventPayload: options.callEventPayload ?? choices.callEventPayload,
    tokenAnswerScope: choices.tokenAnswerScope,
    callControlResponse: options.callControlResponse ?? choices.callControlResponse,
    callControlForbiddenBody: options.callControlForbiddenBody ?? choices.callControlForbiddenBody,
    autoAnswer: resolveAutoAnswer(options.autoAnswer),
    maxPageSize: options.maxPageSize ?? choices.maxPageSize,
    authFailure: choices.authFailure,
    uniqueNumberError: choices.uniqueNumberError,
    activationCalls: choices.activationCalls,
    rateLimitPolicyHeader: options.rateLimitPolicyHeader ?? false,
    callEventDelivery: choices.callEventDelivery,
    orderingTies: choices.orderingTies,
    pageSizeAboveMax: choices.pageSizeAboveMax,
    nextLinks: choices.nextLinks,
    deactivationTokens: choices.deactivationTokens,
  };
  const timeZone = options.timeZone ?? 'Europe/Berlin';
  const integratorTimeoutMs = options.integratorTimeoutMs ?? 10_000;
  const webhooks = new WebhookDispatcher({
    clock,
    integrations,
    timeoutMs: integratorTimeoutMs,
    signal: closing.signal,
    log,
    payload: () => config.callEventPayload,
    delivery: () => config.callEventDelivery,
  });
  let idCounter = 0;
  const calls = new CallEngine({
    clock,
    world,
    timeZone,
    autoAnswer: () => config.autoAnswer,
    emit: (event) => webhooks.dispatch(event),
    newId: (prefix) =>
      `${prefix}_${(++idCounter).toString(36).padStart(4, '0')}${randomBytes(6).toString('hex')}`,
  });
  const platform: Platform = {
    world,
    clock,
    tokens: new TokenStore(clock, {
      revokeAccessTokenOnRefresh: options.revokeAccessTokenOnRefresh ?? true,
    }),
    rateLimiter: new RateLimiter(clock, { ...choices.rateLimits, ...options.rateLimits }),
    integrations,
    calls,
    webhooks,
    hostileEvents: new HostileEvents({
      integrations,
      timeoutMs: integratorTimeoutMs,
      signal: closing.signal,
    }),
    faults: new FaultTable(new SeededRandom(seed + 7919)),
    hostile: new HostileBehaviour(),
    requestLog: new RequestLog(),
    config,
    origin: '',
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: options.clientSecret ?? DEFAULT_CLIENT_SECRET,
    timeZone,
    integratorTimeoutMs,
    signal: closing.signal,
    log,
  };
  const server = createSimServer({
    platform,
    control: new ControlApi(platform),
    portal: new Portal(platform),
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  platform.origin = origin;

  const state = options.stateFile ? keepState(platform, options.stateFile) : undefined;
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      state?.stop();
      closing.abort();
      clock.close();
      calls.close();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };

  log(
    `platform simulator listening on ${origin} (profile ${profile}, ${options.contacts ?? 200} contacts, seed ${seed})`,
  );
  return {
    base_url: origin,
    portal_url: `${origin}/portal`,
    client_id: platform.clientId,
    client_secret: platform.clientSecret,
    tenant_id: MAIN_TENANT_ID,
    profile,
    users: world.users
      .filter((user) => user.tenantId === MAIN_TENANT_ID)
      .map((user) => ({
        extension: user.extension,
        username: user.username,
        password: user.password,
      })),
    clock,
    close,
  };
}
