/**
 * Shared set-up for the integration tests: a real simulator over HTTP (under either profile, see
 * forEachProfile), and an AccountService whose receiver is registered with it as the Activation,
 * Deactivation and Webhook URLs.
 */
import { describe } from 'vitest';
import {
  PROFILE_CHOICES,
  SIM_PROFILES,
  SUITE_PROFILES,
  startSimulator,
  type RunningSimulator,
  type SimProfile,
  type SimulatorOptions,
} from '../../simulator/index';
import { SimControl } from '../../simulator/control-client';
import { completePortalFlow } from '../../simulator/portal-driver';
import { Api } from './raw-api';
import type { ReceiverRegistration } from '../../src-shared/contract';
import {
  AccountService,
  type AccountServiceOptions,
} from '../../src-main/core/account/account-service';
import { createLogger, type Logger } from '../../src-main/core/log/logger';
import { openProfile } from '../../src-main/core/profile';
import type { Vault } from '../../src-main/core/vault/vault';

export { completePortalFlow };
// Here too, where the tests have always found them (these modules import no vitest: benches use
// them).
export { profileEnv } from './profile-env';
export { issuedSession } from './issued-session';
export type { SimProfile };

/**
 * The simulator profiles a suite runs under: 'rich' and 'minimal', or the ones named in
 * SIM_PROFILE (e.g. `SIM_PROFILE=minimal npx vitest run test/integration/core/api`, or `variant`, the choices of
 * another implementation of the contract).
 */
export const PROFILES: readonly SimProfile[] = selectedProfiles(process.env.SIM_PROFILE);

/**
 * The profiles a user journey runs under (describeJourney): the suite's and 'variant' (another
 * implementation's legitimate choices, issue 26), so the next divergence is caught by the
 * journeys first; SIM_PROFILE, when set, names them all.
 */
export const JOURNEY_PROFILES: readonly SimProfile[] = process.env.SIM_PROFILE
  ? PROFILES
  : [...SUITE_PROFILES, 'variant'];

/**
 * Whether the profile's call events carry the whole event (rich) or only `id` (minimal,
 * variant): what a test that follows call states branches on, rather than a profile's name.
 */
export function fullEvents(profile: SimProfile): boolean {
  return PROFILE_CHOICES[profile].callEventPayload === 'full';
}

function selectedProfiles(value: string | undefined): readonly SimProfile[] {
  if (!value) return SUITE_PROFILES;
  const wanted = value.split(',').map((name) => name.trim());
  const unknown = wanted.filter((name) => !SIM_PROFILES.includes(name as SimProfile));
  if (unknown.length > 0)
    throw new Error(
      `SIM_PROFILE: unknown profile ${unknown.join(', ')} (${SIM_PROFILES.join(', ')})`,
    );
  return wanted as SimProfile[];
}

/**
 * Runs `suite` once per simulator profile, inside a describe named after it:
 *
 *   describeEachProfile('phonebooks', (profile) => {
 *     beforeAll(async () => (sim = await startSim({ profile })));
 *     it('…', …);
 *   });
 *
 * (a one-line swap for `describe('phonebooks', () => {`). Use it where the profile matters
 * (events, call-control answers, page sizes, rate limits, the activation encoding); pure input
 * validation needs only one run.
 */
export function describeEachProfile(name: string, suite: (profile: SimProfile) => void): void {
  describe.each(PROFILES)(`${name} (simulator profile %s)`, suite);
}

/**
 * describeEachProfile with the profiles' suites run at the same time (vitest's concurrent suites,
 * each with its own hooks and simulator): for a long file that mostly waits in real time, so that
 * one profile's waits pass while the other's work runs. Its tests take `expect` from their context
 * (`it('…', async ({ expect }) => …)`), as concurrent tests must.
 */
export function describeEachProfileAtOnce(
  name: string,
  suite: (profile: SimProfile) => void,
): void {
  describe.concurrent.each(PROFILES)(`${name} (simulator profile %s)`, suite);
}

/**
 * describeEachProfile for a user journey (account activation, directory sync, calls): under
 * JOURNEY_PROFILES, 'variant' included.
 */
export function describeJourney(name: string, suite: (profile: SimProfile) => void): void {
  describe.each(JOURNEY_PROFILES)(`${name} (simulator profile %s)`, suite);
}

/** describeEachProfile without a name of its own: `forEachProfile((profile) => { … })`. */
export function forEachProfile(suite: (profile: SimProfile) => void): void {
  describeEachProfile('under the simulator', suite);
}

/**
 * Moves the simulator's clock: rate-limit windows, token expiry and auto-answer follow it, so a
 * test never waits in real time (e.g. `advanceClock(sim, 60)` after the minimal profile's 10/60 s).
 */
export async function advanceClock(sim: { base_url: string }, seconds: number): Promise<void> {
  await control(sim, 'POST', 'clock/advance', { seconds });
}

/** JSON to/from the simulator's control API. */
export async function control<T = unknown>(
  sim: { base_url: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${sim.base_url}/__sim/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`control ${method} ${path}: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

import type { LoggedRequest } from '../../simulator/request-log';

export type { LoggedRequest };

export async function requestLog(sim: { base_url: string }): Promise<LoggedRequest[]> {
  return control<LoggedRequest[]>(sim, 'GET', 'requests');
}

export async function countRequests(sim: { base_url: string }, method: string, path: string) {
  return (await requestLog(sim)).filter((entry) => entry.method === method && entry.path === path)
    .length;
}

/**
 * Spends `refreshToken` at the token endpoint as another copy of the tokens would (a process
 * that never stores the answer here).
 */
export function refreshElsewhere(
  sim: { base_url: string; client_id: string; client_secret: string },
  refreshToken: string,
): Promise<Response> {
  return fetch(`${sim.base_url}/v3/oauth/token/`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: sim.client_id,
      client_secret: sim.client_secret,
    }),
  });
}

/** A logger that keeps its lines, so a test can grep them for secrets. */
export function capturingLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: createLogger((line) => lines.push(line), 'debug'), lines };
}

export async function startSim(
  options: Parameters<typeof startSimulator>[0] = {},
): Promise<RunningSimulator> {
  return startSimulator({ contacts: 20, autoAnswer: false, ...options });
}

/** The account settings of a profile that talks to `sim` (receiver on a random port). */
export function accountSettings(sim: RunningSimulator) {
  return {
    base_url: sim.base_url,
    portal_url: sim.portal_url,
    slug: 'callbar',
    receiver_port: 0,
    client_id: sim.client_id,
  };
}

/**
 * Registers a Callbar receiver with the simulator's integration, as a person does on the
 * platform: the exact URLs and headers Callbar reports (`callbar status --json`'s `receiver`,
 * the Settings view, AccountService.receiverRegistration). A bare origin registers the
 * Activation and Deactivation URLs only, for tests that follow no calls.
 */
export function registerReceiver(
  sim: { base_url: string },
  receiver: ReceiverRegistration | string,
  extra: { extra_headers?: Record<string, string>; encoding?: 'json' | 'form' } = {},
): Promise<unknown> {
  const urls =
    typeof receiver === 'string'
      ? {
          activation_url: `${receiver}/activate`,
          deactivation_url: `${receiver}/deactivate`,
          webhook_url: null,
        }
      : {
          activation_url: receiver.activation_url,
          deactivation_url: receiver.deactivation_url,
          webhook_url: receiver.webhook_url,
          extra_headers: receiver.headers,
        };
  return control(sim, 'PUT', 'integrations/callbar', { ...urls, ...extra });
}

/**
 * What the profile of a Callbar process (CLI, preview) with `env` asks the user to register:
 * the `receiver` of `callbar status --json`, computed by the same core code in this process
 * (it reads, or creates, the profile's webhook secret in the keychain).
 */
export async function profileRegistration(env: NodeJS.ProcessEnv): Promise<ReceiverRegistration> {
  const profile = openProfile({ env });
  try {
    return await profile.account.receiverRegistration();
  } finally {
    await profile.close();
  }
}

/** Registers the profile of a Callbar process with `env` with the simulator (see above). */
export async function registerProfile(
  sim: { base_url: string },
  env: NodeJS.ProcessEnv,
): Promise<ReceiverRegistration> {
  const registration = await profileRegistration(env);
  await registerReceiver(sim, registration);
  return registration;
}

export interface AccountRig {
  account: AccountService;
  origin: string;
  register(extra?: {
    extra_headers?: Record<string, string>;
    encoding?: 'json' | 'form';
  }): Promise<unknown>;
}

/** An AccountService on a random receiver port, its URLs registered with the simulator. */
export async function accountRig(
  sim: RunningSimulator,
  vault: Vault,
  log: Logger,
  overrides: Partial<AccountServiceOptions> = {},
): Promise<AccountRig> {
  const account = new AccountService({
    settings: accountSettings(sim),
    clientSecret: sim.client_secret,
    vault,
    log,
    ...overrides,
  });
  await account.start();
  const receiver = await account.listen();
  const registration = await account.receiverRegistration();
  const register: AccountRig['register'] = (extra = {}) =>
    registerReceiver(sim, registration, extra);
  await register();
  return { account, origin: receiver.origin, register };
}

/** Runs the whole portal journey for `user` and waits for the account to be connected. */
export async function connect<Rig extends Pick<AccountRig, 'account'>>(
  rig: Rig,
  sim: RunningSimulator,
  userIndex = 0,
) {
  const user = sim.users[userIndex]!;
  const started = await rig.account.startActivation();
  const portal = await completePortalFlow(started.portalLink, {
    username: user.username,
    password: user.password,
    action: 'subscribe',
  });
  const status = await started.completion;
  return { started, portal, status, user };
}

/** A started simulator and what its conformance tests use to talk to it. */
export interface TestSim {
  sim: RunningSimulator;
  control: SimControl;
  /** A fresh access token for the main tenant's user with this extension. */
  token(extension?: string): Promise<string>;
  api(token?: string): Api;
  /** A form-encoded refresh at the token endpoint with the simulator's client credentials. */
  refresh(refreshToken: string, overrides?: Record<string, string>): Promise<Response>;
}

/**
 * A simulator for its own conformance tests (60 contacts), with its control client, tokens on
 * demand and a plain-HTTP API client (raw-api.ts): the platform as any integrator sees it.
 */
export async function startTestSim(options: SimulatorOptions = {}): Promise<TestSim> {
  const sim = await startSim({ contacts: 60, ...options });
  const control = new SimControl(sim.base_url);
  return {
    sim,
    control,
    token: async (extension = '201') =>
      (await control.issueTokens({ tenant_id: sim.tenant_id, user_extension: extension }))
        .access_token,
    api: (token) => new Api(sim.base_url, token),
    refresh: (refreshToken, overrides = {}) =>
      fetch(`${sim.base_url}/v3/oauth/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: sim.client_id,
          client_secret: sim.client_secret,
          ...overrides,
        }),
      }),
  };
}
