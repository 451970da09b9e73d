/**
 * The relay's handoff and queues attacked as issue 40 found them: two relay nodes on Debian's
 * redis-server, the simulator as the platform, a real Callbar core in relay mode, and light
 * devices (Callbar's own RelayLink) of two tenants.
 *
 * - Squatting: whoever holds the portal link registers its key with their own public key. The
 *   first registration holds; the second ends the attempt (the desktop says why) and the
 *   platform's activation is refused; a poll without the desktop's proof gets nothing.
 * - Secrets at rest: every key and every command Redis saw (MONITOR) across a whole
 *   activation → dial → deactivation holds no token, credential or confirmation key.
 * - A deactivation the platform did not send for this session (a made-up key, or a forged
 *   queue entry) leaves the desktop connected; the real one, queued while it was off, applies.
 * - Events that name nobody stay within their tenant, a few legs per dial.
 * - The embedded store keeps nothing an unauthenticated client leaves past its life.
 *
 * On the code before this round: the squatter received the sealed tokens and the credential (the
 * platform was answered 200, `callbar activate` kept waiting); Redis held `{"credential": …}` and
 * each queued deactivation its confirmation key; a made-up key signed the desktop out; a device
 * that announced dials received every tenant's legs; the embedded store kept pushes forever.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { STARTED_PER_WAIT } from '../../relay/activation-waits';
import { memoryStore } from '../../relay/memory-store';
import { redisStore } from '../../relay/redis-store';
import { startRelay, type RunningRelay } from '../../relay/relay-server';
import { LEGS_PER_DIAL, type RelayStore } from '../../relay/relay-store';
import type { RunningSimulator } from '../../simulator/index';
import { SimControl } from '../../simulator/control-client';
import { ATTEMPT_LIFETIME_MS } from '../../src-main/core/account/activation-attempts';
import { secretFingerprint } from '../../src-main/core/secret-compare';
import { startCore, type CallbarCore } from '../../src-main/core/callbar-core';
import { memoryStateFile } from '../../src-main/core/config/state-file';
import { silentLogger } from '../../src-main/core/log/logger';
import { openProfile } from '../../src-main/core/profile';
import { RelayLink, type RelayCursor } from '../../src-main/core/relay/relay-link';
import { sealConnectLink } from '../../src-main/core/relay/connect-link';
import {
  keyName,
  MAX_SEALED_LINK_CHARS,
  SealedHandoff,
} from '../../src-main/core/relay/relay-protocol';
import { handoffKeyPair, openHandoff } from '../../src-main/core/relay/sealed-handoff';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import { freePort } from '../support/free-port';
import { relayAddresses } from '../support/relay-addresses';
import { redisContents as readRedis } from '../support/redis-contents';
import type { RunningRedis } from '../support/redis-server';
import { startRelayNodes, type RelayNodes } from '../support/relay-nodes';
import {
  advanceClock,
  completePortalFlow,
  control as simRequest,
  profileEnv,
  startSim,
} from '../support/sim-harness';
import { until } from '../support/until';
import { recordFigure } from '../support/hardening/figures';
import { closeClients, send } from '../support/hardening/relay-client';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const SECRET = 'relay-handoff-webhook-secret-0123456789ab';
let relay: RelayNodes;
let redis: RunningRedis;
let stores: RelayStore[];
let nodes: RunningRelay[];
let sim: RunningSimulator;
let control: SimControl;
let core: CallbarCore;
let vault: MemoryVault;

beforeAll(async () => {
  relay = await startRelayNodes(2, {
    webhookSecret: SECRET,
    pollMs: 2000,
    keepAliveMs: 1000,
  });
  ({ redis, stores, nodes } = relay);
  const [a, b] = nodes as [RunningRelay, RunningRelay];
  sim = await startSim({ profile: 'minimal' });
  control = new SimControl(sim.base_url);
  await simRequest(
    sim,
    'PUT',
    'integrations/callbar',
    relayAddresses(
      { activate: a.origin, deactivate: b.origin, events: b.origin },
      SECRET,
      sim.tenant_id,
    ),
  );
  vault = new MemoryVault();
  core = await startCore({
    runtime: 'preview',
    profile: openProfile({
      env: {
        ...profileEnv(sim, mkdtempSync(join(tmpdir(), 'callbar-relay-handoff-')), await freePort()),
        CALLBAR_RELAY_URL: `${b.origin},${a.origin}`,
      },
      vault,
      log: silentLogger,
    }),
    openUrl: () => Promise.resolve(),
  });
});
afterAll(async () => {
  closeClients();
  await core?.close();
  await relay?.close();
  await sim?.close();
});

const alice = () => sim.users[0]!;
const subscribe = (portalLink: string, action: 'subscribe' | 'unsubscribe' = 'subscribe') =>
  completePortalFlow(portalLink, {
    username: alice().username,
    password: alice().password,
    action,
  });
const keyOf = (portalLink: string) => new URL(portalLink).searchParams.get('confirmation_key')!;

/** A squatter's registration of `keySha256`, with their own key pair and proof. */
function squatter(keySha256: string) {
  const proof = randomBytes(32).toString('base64url');
  return {
    proof: { key_sha256: keySha256, proof },
    registration: {
      key_sha256: keySha256,
      public_key: randomBytes(32).toString('base64url'),
      proof_sha256: secretFingerprint(proof),
      connect_link: { name: randomBytes(32).toString('hex'), sealed: 'A'.repeat(64) },
    },
  };
}

const redisContents = () => readRedis(redis.url);

it('activation squatting: the first registration holds, a second ends the attempt, no proof no handoff', async () => {
  const account = core.profile.account;
  const [a, b] = nodes as [RunningRelay, RunningRelay];

  // A poll without the waiting desktop's proof gets nothing, and the desktop still connects.
  const first = await account.startActivation();
  const key = keyName(keyOf(first.portalLink));
  const thief = squatter(key);
  const stolen = await send('POST', `${a.origin}/device/activation/wait`, { body: thief.proof });
  expect(stolen.status).toBe(403);
  expect((await subscribe(first.portalLink)).status).toBe(303);
  expect((await first.completion).state).toBe('connected');
  await account.deactivateLocal();

  // The squatter registers the key of a waiting attempt: refused, and the attempt ends.
  const second = await account.startActivation();
  second.completion.catch(() => undefined);
  const other = squatter(keyName(keyOf(second.portalLink)));
  const squat = await send('POST', `${b.origin}/device/activation`, { body: other.registration });
  expect(squat.status).toBe(409);
  await expect(second.completion).rejects.toMatchObject({ code: 'activation_link_reused' });
  expect(account.status().message).toContain('Someone else registered');
  const polled = await send('POST', `${b.origin}/device/activation/wait`, { body: other.proof });
  expect(polled.status).not.toBe(200);
  // The platform's activation for that link is refused: nobody gets the tokens.
  expect((await subscribe(second.portalLink)).status).not.toBe(303);
  const { attempts } = await control.integration('callbar');
  expect(attempts.at(-1)).toMatchObject({ action: 'activate', status: 403 });
  recordFigure(
    'relay: a second registration of a waiting key (the portal link’s holder)',
    `409; the attempt ended ("Someone else registered…"), the platform's activation 403, sealed handoffs to the squatter 0; a poll without the proof 403 (before: the squatter's key won, the handoff and credential were theirs, the platform got 200)`,
  );
});

it('a key stays its first desktop’s for the attempt’s life: the squatter cannot register it again once the attempt ended', async () => {
  const account = core.profile.account;
  const [a, b] = nodes as [RunningRelay, RunningRelay];
  const started = await account.startActivation();
  started.completion.catch(() => undefined);
  const thief = squatter(keyName(keyOf(started.portalLink)));
  const register = (node: RunningRelay) =>
    send('POST', `${node.origin}/device/activation`, { body: thief.registration });
  expect((await register(b)).status).toBe(409);
  // The desktop heard it (its poll got 410) and stopped.
  await expect(started.completion).rejects.toMatchObject({ code: 'activation_link_reused' });
  // The squatter registers the key again, at either node.
  const again = [await register(a), await register(b)];
  // The user, whose browser still shows the portal, subscribes; the squatter polls meanwhile.
  const subscribed = subscribe(started.portalLink);
  let polled = await send('POST', `${a.origin}/device/activation/wait`, { body: thief.proof });
  for (let poll = 0; poll < 5 && polled.status === 204; poll += 1) {
    polled = await send('POST', `${a.origin}/device/activation/wait`, { body: thief.proof });
  }
  expect(polled.status).not.toBe(200);
  expect((await subscribed).status).not.toBe(303);
  const { attempts } = await control.integration('callbar');
  expect(attempts.at(-1)).toMatchObject({ action: 'activate', status: 403 });
  expect(again.map((answer) => answer.status)).toEqual([409, 409]);
  recordFigure(
    'relay: the squatter registers an ended attempt’s key again, then the user subscribes',
    `registrations ${again.map((answer) => answer.status).join(', ')}, sealed handoffs to the squatter 0, the platform's activation 403 (before: 204, the squatter's poll got the user's sealed tokens)`,
  );
});

it('a poll its desktop left takes nothing: the handoff waits for the desktop’s next poll, at the other node', async () => {
  const [a, b] = nodes as [RunningRelay, RunningRelay];
  // A third node on the same Redis, holding polls as long as a deployed one does (20 s).
  const store = redisStore(redis.url, silentLogger);
  const c = await startRelay({ port: 0, store, log: silentLogger, webhookSecret: SECRET });
  const confirmationKey = randomBytes(32).toString('base64url');
  const portalLink = `${sim.portal_url}/integrations/callbar/activate?confirmation_key=${confirmationKey}&redirect_url=${encodeURIComponent(`${a.origin}/done`)}`;
  const key = keyName(confirmationKey);
  const { keyPair, publicKey } = await handoffKeyPair();
  const link = sealConnectLink(portalLink);
  const proof = { key_sha256: key, proof: randomBytes(32).toString('base64url') };
  const registered = await send('POST', `${a.origin}/device/activation`, {
    body: {
      key_sha256: key,
      public_key: publicKey,
      proof_sha256: secretFingerprint(proof.proof),
      connect_link: { name: link.name, sealed: link.sealed },
    },
  });
  expect(registered.status).toBe(204);
  // The desktop's poll at node C, left while the node holds it (the desktop's network changed).
  const left = request(`${c.origin}/device/activation/wait`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
  });
  left.on('error', () => undefined);
  left.end(JSON.stringify(proof));
  const client = new Redis(redis.url);
  const held = async () => {
    const [, count] = (await client.call(
      'PUBSUB',
      'SHARDNUMSUB',
      `callbar:relay:pushed:handoff:${key}`,
    )) as [string, number];
    return count;
  };
  try {
    await until('node C holds the poll', async () => ((await held()) > 0 ? true : undefined));
    left.destroy();
    // The user subscribes; the desktop asks again, at node B, once the platform's call made the
    // device (a mark until its confirmation) and handed it over (and the left poll, if anything,
    // took it).
    const pending = async () => (await client.keys('callbar:relay:wait:pending:*')).length;
    const subscribed = subscribe(portalLink);
    await until('the device made', async () => ((await pending()) > 0 ? true : undefined));
    await until('no poll left at node C', async () => ((await held()) === 0 ? true : undefined));
    let polled = await send('POST', `${b.origin}/device/activation/wait`, { body: proof });
    for (let poll = 0; poll < 15 && polled.status === 204; poll += 1) {
      polled = await send('POST', `${b.origin}/device/activation/wait`, { body: proof });
    }
    expect(polled.status).toBe(200);
    const handoff = await openHandoff(keyPair, key, SealedHandoff.parse(JSON.parse(polled.text)));
    const confirmed = await send('POST', `${b.origin}/device/activation/confirm`, {
      body: { key_sha256: key, credential: handoff.credential, stored: true },
    });
    expect(confirmed.status).toBe(200);
    expect((await subscribed).status).toBe(303);
    recordFigure(
      'relay: a desktop’s poll left at one node, the desktop polls again at another, the user subscribes',
      'the handoff reached the new poll, the platform 200 (before: the left poll took it and wrote it to a closed socket; the platform 504 after 20 s)',
    );
  } finally {
    client.disconnect();
    await c.close();
    await store.close();
  }
});

it('only hashes and sealed values in Redis: every key, and MONITOR over activation → dial → deactivation', async () => {
  const account = core.profile.account;
  const monitorClient = new Redis(redis.url);
  const monitor = await monitorClient.monitor();
  const commands: string[] = [];
  monitor.on('monitor', (_time: string, args: string[]) => commands.push(args.join(' ')));
  const contents: string[] = [];
  try {
    const started = await account.startActivation();
    const confirmationKey = keyOf(started.portalLink);
    contents.push(await redisContents());
    expect((await subscribe(started.portalLink)).status).toBe(303);
    await started.completion;
    const session = (await vault.load())!;
    contents.push(await redisContents());

    // A call: events through the relay (the minimal profile's `{id}`, by the dial note).
    await advanceClock(sim, 61);
    const dialled = await core.router.invoke('calls.dial', { target: '+49 30 1234567' });
    expect(dialled).toMatchObject({ ok: true });
    const call = await until('the call', async () => (await control.calls()).at(-1));
    await until('its first leg through the relay', async () => {
      const listed = (await core.router.invoke('calls.list', {})) as {
        ok: true;
        value: { current: { leg_ids: string[] }[] };
      };
      return listed.value.current[0]?.leg_ids.includes(call.legs[0]!.id) ? true : undefined;
    });
    await core.router.invoke('calls.hangup', {});
    contents.push(await redisContents());

    // A made-up key (through the authenticated address) and a forged queue entry: ignored.
    const user = { tenant_id: session.tenant_id, user_extension: session.user_extension };
    const madeUp = await send('POST', `${nodes[1]!.origin}/deactivate/${SECRET}`, {
      body: { ...user, confirmation_key: 'made-up', access_token: '', refresh_token: '' },
    });
    expect(madeUp.status).toBe(200);
    await stores[0]!.append(
      session.relay_device!.device_id,
      JSON.stringify({
        type: 'deactivate',
        body: { ...user, key_sha256: randomBytes(32).toString('hex') },
      }),
    );
    // The desktop read both (an event after them arrives) and is still connected.
    await stores[0]!.append(
      session.relay_device!.device_id,
      JSON.stringify({ type: 'event', event: { id: 'after-the-forgeries' } }),
    );
    const events: string[] = [];
    const off = account.onCallEvent((event) => events.push(event.id));
    await until('the event after the forgeries', () =>
      events.includes('after-the-forgeries') ? true : undefined,
    );
    off();
    expect(account.status().state).toBe('connected');

    // The real deactivation, queued while the desktop is off, applies when it is back.
    account.stopListening();
    expect((await subscribe(started.portalLink, 'unsubscribe')).status).toBe(303);
    contents.push(await redisContents());
    await account.listen();
    await until('the queued deactivation applied', () =>
      account.status().state === 'not-connected' ? true : undefined,
    );

    const secrets = {
      confirmation_key: confirmationKey,
      access_token: session.access_token,
      refresh_token: session.refresh_token,
      credential: session.relay_device!.credential,
      webhook_secret: SECRET,
    };
    const everything = [...contents, ...commands].join('\n');
    const found = Object.entries(secrets)
      .filter(([, value]) => everything.includes(value))
      .map(([name]) => name);
    expect(found).toEqual([]);
    expect(commands.length).toBeGreaterThan(50);
    recordFigure(
      'relay: Redis keys (4 scans) and MONITOR over activation → dial → forged and real deactivation',
      `${commands.length} commands, 0 holding a token, credential, confirmation key or secret; forged deactivations applied 0 of 2 (before: the credential in box:confirm, the key in every queued deactivation; a made-up key signed the desktop out)`,
    );
  } finally {
    monitorClient.disconnect();
  }
});

it('another device cannot answer an activation for its key: forged confirmations change nothing', async () => {
  const account = core.profile.account;
  const [a, b] = nodes as [RunningRelay, RunningRelay];
  // Another desktop of the organisation, with its own valid credential.
  const credential = randomBytes(32).toString('base64url');
  await stores[0]!.addDevice({
    device_id: randomUUID(),
    tenant_id: sim.tenant_id,
    user_extension: '202',
    credential_sha256: secretFingerprint(credential),
    created_at: new Date().toISOString(),
  });
  const started = await account.startActivation();
  const key = keyName(keyOf(started.portalLink));
  // It confirms the attempt's key ("not stored") at both nodes before the platform calls.
  const forged = await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      send('POST', `${(index % 2 === 0 ? a : b).origin}/device/activation/confirm`, {
        from: '127.0.0.21',
        body: { key_sha256: key, credential, stored: false },
      }),
    ),
  );
  const kept = (await redisContents()).split('\n').filter((line) => line.includes(':confirm'));
  expect((await subscribe(started.portalLink)).status).toBe(303);
  expect((await started.completion).state).toBe('connected');
  const { attempts } = await control.integration('callbar');
  expect(attempts.at(-1)).toMatchObject({ action: 'activate', status: 200 });
  expect(new Set(forged.map((answer) => answer.status))).toEqual(new Set([403]));
  expect(kept).toEqual([]);
  await account.deactivateLocal();
  recordFigure(
    'relay: another device confirms a waiting attempt’s key 20 times (both nodes), then the platform activates it',
    'confirmations 403, 0 kept in Redis; the activation 200, the desktop connected (before: each 200, kept in box:confirm; the platform took the forged one first and was answered 503)',
  );
});

it('events that name nobody stay within their tenant, a few legs per dial', async () => {
  const [, b] = nodes as [RunningRelay, RunningRelay];
  const devices = await Promise.all(
    ['acme', 'globex'].map(async (tenant) => {
      const credential = randomBytes(32).toString('base64url');
      const device_id = randomUUID();
      await stores[0]!.addDevice({
        device_id,
        tenant_id: tenant,
        user_extension: '201',
        credential_sha256: secretFingerprint(credential),
        created_at: new Date().toISOString(),
      });
      const received: string[] = [];
      const link = new RelayLink({
        urls: [b.origin],
        log: silentLogger,
        cursor: memoryStateFile<RelayCursor>(),
      });
      const stream = link.connect(
        { device_id, credential },
        (message) => {
          if (message.type === 'event') received.push(message.event.id);
          return Promise.resolve();
        },
        () => undefined,
      );
      await stream.ready;
      await link.announceDial(credential);
      return { tenant, received, stream };
    }),
  );
  const [acme, globex] = devices as [(typeof devices)[0], (typeof devices)[0]];
  const post = (id: string, query = '') =>
    send('POST', `${b.origin}/events/${SECRET}${query}`, { body: { id } });
  // globex's legs, id only, from globex's Webhook URL; then some with no tenant at all.
  for (let index = 0; index < 10; index += 1) {
    expect((await post(`globex-${index}`, '?tenant=globex')).status).toBe(200);
  }
  for (let index = 0; index < 5; index += 1) {
    expect((await post(`nobody-${index}`)).status).toBe(200);
  }
  expect((await post('acme-0', '?tenant=acme')).status).toBe(200);
  await until('acme’s leg', () => (acme.received.includes('acme-0') ? true : undefined));
  await until('globex’s legs', () => (globex.received.length >= LEGS_PER_DIAL ? true : undefined));
  expect(acme.received).toEqual(['acme-0']);
  // One dial: at most LEGS_PER_DIAL new legs (later events of those legs still follow).
  expect(globex.received).toEqual(
    Array.from({ length: LEGS_PER_DIAL }, (_, index) => `globex-${index}`),
  );
  for (const device of devices) device.stream.close();
  recordFigure(
    'relay: 10 id-only legs of another tenant and 5 naming no tenant, a device that just dialled',
    `0 of the other tenant's, 0 of the tenantless; its own tenant: ${LEGS_PER_DIAL} legs per dial at most (before: every tenant's, kept 6 h)`,
  );
});

it('the embedded store keeps what unauthenticated clients leave only for its life, capped', async () => {
  let clock = Date.now();
  const store = memoryStore(() => clock);
  const node = await startRelay({
    port: 0,
    store,
    log: silentLogger,
    webhookSecret: SECRET,
    now: () => clock,
    rate: { burst: 100_000, perSecond: 100_000 },
  });
  const register = async () => {
    const proof = randomBytes(32).toString('base64url');
    const key_sha256 = randomBytes(32).toString('hex');
    const answer = await send('POST', `${node.origin}/device/activation`, {
      from: '127.0.0.12',
      body: {
        key_sha256,
        public_key: randomBytes(32).toString('base64url'),
        proof_sha256: secretFingerprint(proof),
        connect_link: {
          name: randomBytes(32).toString('hex'),
          sealed: 'A'.repeat(MAX_SEALED_LINK_CHARS),
        },
      },
    });
    return { ...answer, proof: { key_sha256, proof } };
  };
  try {
    const answers = await Promise.all(Array.from({ length: 1500 }, register));
    const kept = answers.filter((answer) => answer.status === 204).length;
    // Confirmations for keys nobody activated: refused, nothing kept.
    const confirmations = await Promise.all(
      Array.from({ length: 200 }, () =>
        send('POST', `${node.origin}/device/activation/confirm`, {
          from: '127.0.0.12',
          body: {
            key_sha256: randomBytes(32).toString('hex'),
            credential: randomBytes(32).toString('base64url'),
            stored: true,
          },
        }),
      ),
    );
    expect(kept).toBe(20);
    expect(new Set(confirmations.map((answer) => answer.status))).toEqual(new Set([403]));
    const during = store.entries();
    clock += 61_000;
    // Only each attempt's marks (its key's first holder, counted twice as started) are left.
    const after = store.entries();
    expect(after).toBe(3 * kept);
    // Attempts started and cancelled at once: STARTED_PER_WAIT per registration kept (20).
    const churn: number[] = [];
    for (let index = 0; index < 200; index += 1) {
      const answer = await register();
      churn.push(answer.status);
      await send('POST', `${node.origin}/device/activation/cancel`, {
        from: '127.0.0.12',
        body: answer.proof,
      });
    }
    const started = churn.filter((status) => status === 204).length;
    expect(started).toBe(STARTED_PER_WAIT * 20 - kept);
    expect(new Set(churn.slice(started))).toEqual(new Set([429]));
    clock += ATTEMPT_LIFETIME_MS;
    expect(store.entries()).toBe(0);
    recordFigure(
      'relay, embedded store: 1,500 registrations and 200 confirmations from one address',
      `${kept} kept, confirmations 403; ${during} entries, ${after} after 61 s (each attempt's marks), 0 after 10 minutes; registered and cancelled at once: ${kept + started} attempts in 10 minutes, then 429 (before: all kept 10 minutes, pushes kept until popped)`,
    );
  } finally {
    await node.close();
    await store.close();
  }
});
