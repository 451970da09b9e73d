/**
 * In relay mode the browser is started with a one-time connect link at the relay, as with the
 * loopback receiver: never the portal link itself (it holds the confirmation key, and a command
 * line is readable by every local user). The relay keeps the portal link sealed (nothing in Redis
 * holds the key or the link in the clear); the first use redirects to the portal, a second use
 * while the attempt waits ends it, and the platform's activation for it is then refused.
 * A real Callbar core, the simulator, one relay node on a real redis-server.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { RunningRelay } from '../../../relay/relay-server';
import type { RunningSimulator } from '../../../simulator/index';
import { SimControl } from '../../../simulator/control-client';
import { relayEndedAttemptWarning } from '../../../src-main/core/account/account-service';
import { linkOpenedTwice } from '../../../src-main/core/account/activation-attempts';
import type { CallbarCore } from '../../../src-main/core/callbar-core';
import { relayAddresses } from '../../support/relay-addresses';
import { startRelayNodes, type RelayNodes } from '../../support/relay-nodes';
import { until } from '../../support/until';
import { redisContents as readRedis } from '../../support/redis-contents';
import { completePortalFlow, control as simRequest, startSim } from '../../support/sim-harness';
import { startRelayCore } from '../../support/test-core';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const SECRET = 'relay-connect-webhook-secret-0123456789a';
let relay: RelayNodes;
let node: RunningRelay;
let sim: RunningSimulator;
let core: CallbarCore;
const opened: string[] = [];

beforeAll(async () => {
  relay = await startRelayNodes(1, { webhookSecret: SECRET, pollMs: 2000 });
  node = relay.nodes[0]!;
  sim = await startSim({ profile: 'minimal' });
  await simRequest(sim, 'PUT', 'integrations/callbar', relayAddresses(node.origin, SECRET));
  core = await startRelayCore(sim, node.origin, { opened });
});
afterAll(async () => {
  await core?.close();
  await relay?.close();
  await sim?.close();
});

const redisContents = () => readRedis(relay.redis.url);

const open = (url: string) => fetch(url, { redirect: 'manual' });

it('the browser gets a one-time link at the relay, which leads to the portal once', async () => {
  const account = core.profile.account;
  const started = await account.startActivation({ openUrl: (url) => void opened.push(url) });
  const key = new URL(started.portalLink).searchParams.get('confirmation_key');
  expect(key).toBeTruthy();
  expect(started.browserUrl).toMatch(new RegExp(`^${node.origin}/connect/[A-Za-z0-9_-]{43}$`));
  expect(opened.at(-1)).toBe(started.browserUrl);
  expect(started.browserUrl).not.toContain(key!);
  // At rest at the relay: neither the key nor the portal link in the clear.
  const stored = await redisContents();
  expect(stored).toContain('connect:');
  expect(stored).not.toContain(key!);
  expect(stored).not.toContain(encodeURIComponent(key!));
  expect(stored).not.toContain(sim.portal_url);

  const first = await open(started.browserUrl);
  expect(first.status).toBe(303);
  expect(first.headers.get('location')).toBe(started.portalLink);
  expect(first.headers.get('referrer-policy')).toBe('no-referrer');
  const alice = sim.users[0]!;
  const consent = await completePortalFlow(first.headers.get('location')!, {
    username: alice.username,
    password: alice.password,
    action: 'subscribe',
  });
  expect(consent.status).toBe(303);
  expect((await started.completion).state).toBe('connected');
  // Spent: the attempt is over, the link says so and changes nothing.
  const again = await open(started.browserUrl);
  expect(again.status).toBe(404);
  expect(await again.text()).toContain('This connect link is no longer valid');
  expect(account.status().state).toBe('connected');
});

it('opened twice while the attempt waits: the attempt ends, the platform’s activation is refused', async () => {
  const account = core.profile.account;
  await account.deactivateLocal();
  const started = await account.startActivation();
  started.completion.catch(() => undefined);
  expect((await open(started.browserUrl)).status).toBe(303);
  const second = await open(started.browserUrl);
  expect(second.status).toBe(400);
  expect(await second.text()).toContain('Callbar stopped connecting');
  await expect(started.completion).rejects.toMatchObject({ code: 'activation_link_reused' });
  expect(account.status()).toMatchObject({ state: 'not-connected' });
  expect(account.status().message).toBe(`${linkOpenedTwice()} ${relayEndedAttemptWarning()}`);

  // Whoever opened it first cannot use the portal link to connect this computer.
  const alice = sim.users[0]!;
  const consent = await completePortalFlow(started.portalLink, {
    username: alice.username,
    password: alice.password,
    action: 'subscribe',
  });
  expect(consent.status).not.toBe(303);
  const { attempts } = await new SimControl(sim.base_url).integration('callbar');
  expect(attempts.at(-1)).toMatchObject({ action: 'activate', status: 403 });
  expect(account.status().state).toBe('not-connected');
});

it('a request a web page caused (an <img>, fetch) neither spends the link nor ends the attempt', async () => {
  const account = core.profile.account;
  await account.deactivateLocal();
  const started = await account.startActivation();
  started.completion.catch(() => undefined);
  // Before: the page's request got the 303 to the portal (spent), and the browser's own then
  // ended the attempt ("opened twice").
  for (const site of ['cross-site', 'same-site', 'same-origin']) {
    const fromPage = await fetch(started.browserUrl, {
      redirect: 'manual',
      headers: { 'sec-fetch-site': site, 'sec-fetch-dest': 'image' },
    });
    expect(fromPage.status).toBe(403);
    expect(fromPage.headers.get('location')).toBeNull();
    expect(await fromPage.text()).toContain('works only when your browser opens it directly');
  }
  const browser = await fetch(started.browserUrl, {
    redirect: 'manual',
    headers: { 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document' },
  });
  expect(browser.status).toBe(303);
  expect(browser.headers.get('location')).toBe(started.portalLink);
  expect(account.status().state).toBe('activating');
  account.cancelActivation();
  await expect(started.completion).rejects.toMatchObject({ code: 'activation_cancelled' });
});

it('cancelled in Callbar: the relay drops the wait and the link at once, and refuses the platform’s activation', async () => {
  const account = core.profile.account;
  await account.deactivateLocal();
  const started = await account.startActivation();
  started.completion.catch(() => undefined);
  // The portal link was handed out (someone may still use it); then the user cancels.
  account.cancelActivation();
  await expect(started.completion).rejects.toMatchObject({ code: 'activation_cancelled' });
  // Only who registered the key first stays (the attempt's lifetime): nobody else may now. (An
  // earlier attempt's `activated` mark, for the platform's repeats, stays its lifetime too.)
  await until('the relay holds no wait for the attempt', async () =>
    (await redisContents()).split('\n').some((line) => /:wait:(?!taken:|activated:)/.test(line))
      ? undefined
      : true,
  );
  expect((await open(started.browserUrl)).status).toBe(404);

  // The platform's activation is refused now (403), not held until the wait runs out (504).
  const alice = sim.users[0]!;
  const consent = await completePortalFlow(started.portalLink, {
    username: alice.username,
    password: alice.password,
    action: 'subscribe',
  });
  expect(consent.status).not.toBe(303);
  const { attempts } = await new SimControl(sim.base_url).integration('callbar');
  expect(attempts.at(-1)).toMatchObject({ action: 'activate', status: 403 });
  expect(account.status().state).toBe('not-connected');
});
