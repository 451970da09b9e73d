/**
 * The relay under load on this machine: `npm run bench:relay -- [DEVICES] [EVENTS] [CORES]`
 * (default 1000, 5000 and 4), and a reduced run as part of `npm run bench` (bench/index.ts).
 *
 * Two relay nodes as an administrator runs them (`relay/main.ts` processes) share a real
 * redis-server. DEVICES light devices (Callbar's own RelayLink, half on each node) stream in this
 * process, and CORES real Callbar cores (one per simulator user, each activated through the
 * simulator's portal and the relay) follow calls the simulator rings them with, its call events
 * reaching the relay's Webhook URL as the platform posts them. The light devices' events (naming
 * their user) are POSTed by the bench as the platform would, EVENTS of them, 32 at a time.
 *
 * Figures: events delivered per second, p50/p99 delivery latency (light devices: the platform's
 * POST to the device; cores, rung after the light devices' load: the simulator's ringing to the
 * core's first event of the call), memory per connected device (relay processes and device side),
 * then one node SIGKILLed while as many events again keep coming to the light devices and the
 * cores: events lost (both) and the time until the last one arrived after the kill.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { redisStore } from '../relay/redis-store';
import { startSimulator } from '../simulator/index';
import { SimControl } from '../simulator/control-client';
import { completePortalFlow } from '../simulator/portal-driver';
import { startCore, type CallbarCore } from '../src-main/core/callbar-core';
import { memoryStateFile } from '../src-main/core/config/state-file';
import { silentLogger } from '../src-main/core/log/logger';
import { openProfile } from '../src-main/core/profile';
import { RelayLink, type RelayCursor, type RelayStream } from '../src-main/core/relay/relay-link';
import { MemoryVault } from '../src-main/core/vault/memory-vault';
import { freePort } from '../test/support/free-port';
import { startRedis } from '../test/support/redis-server';
import { relayProcess, type RelayProcess } from '../test/support/relay-process';
import { relayAddresses } from '../test/support/relay-addresses';

const SECRET = 'relay-bench-webhook-secret-0123456789ab';

export interface RelayBenchOptions {
  /** Light devices (the device protocol only). */
  devices: number;
  /** Call events for the light devices, per phase (steady, then a node killed). */
  events: number;
  /** Real Callbar cores (at most the simulator's users: 4). */
  cores: number;
  /** Calls the simulator rings each core with, per phase. */
  callsPerCore: number;
}

export interface RelayFigures {
  devices: number;
  cores: number;
  nodes: 2;
  events_per_second: number;
  latency_ms: { p50: number; p99: number };
  memory_per_device_kib: { relay: number; device: number };
  cores_figures: {
    events: number;
    latency_ms: { p50: number; p99: number };
    lost: number;
  };
  node_killed: {
    events: number;
    lost: number;
    cores_lost: number;
    /** The longest an event waited meanwhile (the killed node's devices reconnecting). */
    longest_wait_ms: number;
    all_delivered_after_s: number;
  };
}

export const FULL_RUN: RelayBenchOptions = {
  devices: 1000,
  events: 5000,
  cores: 4,
  callsPerCore: 20,
};
export const REDUCED_RUN: RelayBenchOptions = {
  devices: 200,
  events: 1000,
  cores: 2,
  callsPerCore: 5,
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** A process's resident memory (Linux), in bytes; NaN elsewhere. */
function rssOf(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
  } catch {
    return NaN;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` (60 s at most: a figure then says what was lost). */
async function settle(done: () => boolean) {
  const deadline = Date.now() + 60_000;
  while (!done() && Date.now() < deadline) await sleep(20);
}

export async function relayBench(options: RelayBenchOptions): Promise<RelayFigures> {
  const redis = await startRedis();
  const children: RelayProcess[] = [];
  const cores: CallbarCore[] = [];
  const streams: RelayStream[] = [];
  const sim = await startSimulator({ contacts: 20, autoAnswer: false, profile: 'rich' });
  try {
    const origins: string[] = [];
    for (let index = 0; index < 2; index += 1) {
      const port = await freePort();
      const child = relayProcess([], {
        ...process.env,
        RELAY_PORT: String(port),
        RELAY_REDIS_URL: redis.url,
        RELAY_WEBHOOK_SECRET: SECRET,
        // The bench is one client address sending everything.
        RELAY_RATE_BURST: '1000000000',
        RELAY_RATE_PER_SECOND: '1000000000',
      });
      children.push(child);
      await child.listening;
      origins.push(`http://127.0.0.1:${port}`);
    }
    const [a, b] = origins as [string, string];
    const control = new SimControl(sim.base_url);
    // The platform's deliveries go to node B (the one that survives).
    await control.putIntegration(
      'callbar',
      relayAddresses({ activate: a, deactivate: b, events: b }, SECRET),
    );

    // --- Real Callbar cores, activated through the portal and the relay -------------------
    const users = (await control.world()).users.slice(0, options.cores);
    const coreReceipts = new Map<string, number>();
    const coreLatencies: number[] = [];
    const ringing = new Map<string, number>();
    for (const [index, user] of users.entries()) {
      const core = await startCore({
        runtime: 'preview',
        profile: openProfile({
          env: {
            CALLBAR_DATA_DIR: mkdtempSync(join(tmpdir(), 'callbar-relay-bench-')),
            CALLBAR_BASE_URL: sim.base_url,
            CALLBAR_PORTAL_URL: sim.portal_url,
            CALLBAR_CLIENT_ID: sim.client_id,
            CALLBAR_CLIENT_SECRET: sim.client_secret,
            CALLBAR_RECEIVER_PORT: String(await freePort()),
            CALLBAR_RELAY_URL: (index % 2 === 0 ? [a, b] : [b, a]).join(','),
          },
          vault: new MemoryVault(),
          log: silentLogger,
        }),
        openUrl: () => Promise.resolve(),
      });
      cores.push(core);
      const account = core.profile.account;
      const started = await account.startActivation();
      await completePortalFlow(started.portalLink, {
        username: user.username,
        password: user.password,
        action: 'subscribe',
      });
      await started.completion;
      await account.listen();
      const who = `${user.tenant_id}/${user.extension}`;
      coreReceipts.set(who, 0);
      account.onCallEvent((event) => {
        coreReceipts.set(who, (coreReceipts.get(who) ?? 0) + 1);
        const at = ringing.get(event.id);
        if (at !== undefined) {
          coreLatencies.push(Date.now() - at);
          ringing.delete(event.id);
        }
      });
    }

    /** Rings every core callsPerCore times (the simulator's incoming call, then its end). */
    const ringCores = () =>
      Promise.all(
        users.map(async (user) => {
          for (let call = 0; call < options.callsPerCore; call += 1) {
            const at = Date.now();
            const placed = await control.incomingCall({
              tenant_id: user.tenant_id,
              user_extension: user.extension,
              from: '+4930999000',
            });
            const own = placed.legs.find((leg) => leg.leg === 'callee');
            if (!own) continue;
            ringing.set(own.id, at);
            // One call at a time per core: its first event is in before the next (10 s at most),
            // so the figure is the path's, not a queue of the simulator's deliveries.
            const deadline = Date.now() + 10_000;
            while (ringing.has(own.id) && Date.now() < deadline) await sleep(2);
            await control.endLeg(own.id);
          }
        }),
      );
    /** What the simulator delivered (200) to the relay for the cores' users. */
    const deliveredToCores = async () => {
      const log = await control.webhooksSettled(60_000);
      return log.deliveries.filter(
        (delivery) =>
          delivery.status === 200 &&
          coreReceipts.has(
            `${String(delivery.sent.tenant_id)}/${String(delivery.sent.user_extension)}`,
          ),
      ).length;
    };
    const receivedByCores = () => [...coreReceipts.values()].reduce((sum, n) => sum + n, 0);

    // --- Light devices ----------------------------------------------------------------------
    const rssBefore = children.map((child) => rssOf(child.child.pid));
    const benchDevicesBefore = process.memoryUsage().rss;
    const store = redisStore(redis.url, silentLogger);
    const received = new Map<number, Set<string>>();
    const latencies: number[] = [];
    let lastReceipt = 0;
    for (let device = 0; device < options.devices; device += 1) {
      const credential = randomBytes(32).toString('base64url');
      await store.addDevice({
        device_id: `bench-${device}`,
        tenant_id: 'bench',
        user_extension: String(1000 + device),
        credential_sha256: createHash('sha256').update(credential).digest('hex'),
        created_at: new Date().toISOString(),
      });
      const seen = new Set<string>();
      received.set(device, seen);
      const link = new RelayLink({
        urls: device % 2 === 0 ? [a, b] : [b, a],
        log: silentLogger,
        cursor: memoryStateFile<RelayCursor>(),
        maxBackoffMs: 500,
      });
      streams.push(
        link.connect(
          { device_id: `bench-${device}`, credential },
          (message) => {
            if (message.type === 'event' && !seen.has(message.event.id)) {
              seen.add(message.event.id);
              latencies.push(Date.now() - Number(message.event.sent_at));
              lastReceipt = Date.now();
            }
            return Promise.resolve();
          },
          () => undefined,
        ),
      );
    }
    await Promise.all(streams.map((stream) => stream.ready));
    const relayPerDevice =
      (children.reduce((sum, child) => sum + rssOf(child.child.pid), 0) -
        rssBefore.reduce((sum, value) => sum + value, 0)) /
      options.devices;
    const devicePerDevice = (process.memoryUsage().rss - benchDevicesBefore) / options.devices;

    /** POSTs `count` events, 32 at a time, to `targets` in turn, as the platform would. */
    const send = async (count: number, prefix: string, targets: string[]) => {
      let next = 0;
      const worker = async () => {
        while (next < count) {
          const index = next++;
          const device = index % options.devices;
          const response = await fetch(`${targets[index % targets.length]!}/events/${SECRET}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              id: `${prefix}-${index}`,
              tenant_id: 'bench',
              user_extension: String(1000 + device),
              sent_at: String(Date.now()),
            }),
          });
          await response.body?.cancel();
          if (response.status !== 200) throw new Error(`delivery answered ${response.status}`);
        }
      };
      await Promise.all(Array.from({ length: 32 }, worker));
    };
    const total = () => [...received.values()].reduce((sum, seen) => sum + seen.size, 0);

    // --- Steady load ---------------------------------------------------------------------------
    const started = Date.now();
    await send(options.events, 'steady', [a, b]);
    await settle(() => total() >= options.events);
    const seconds = (lastReceipt - started) / 1000;
    const steadyLatencies = [...latencies];
    // The cores on their own (the bench's flood shares this process with the simulator).
    await ringCores();
    const coresExpected = await deliveredToCores();
    await settle(() => receivedByCores() >= coresExpected);
    const coresSteady = {
      events: receivedByCores(),
      lost: coresExpected - receivedByCores(),
      latencies: [...coreLatencies],
    };

    // --- Node A SIGKILLed under load: its devices go on with node B -----------------------------
    const killAt = Date.now();
    const sending = Promise.all([send(options.events, 'kill', [b]), ringCores()]);
    await sleep(50);
    children[0]!.child.kill('SIGKILL');
    await children[0]!.exit;
    await sending;
    const coresExpectedAfter = await deliveredToCores();
    await settle(() => total() >= options.events * 2 && receivedByCores() >= coresExpectedAfter);
    const recovered = (Math.max(lastReceipt, killAt) - killAt) / 1000;
    const killLatencies = latencies.slice(steadyLatencies.length);

    const figures: RelayFigures = {
      devices: options.devices,
      cores: users.length,
      nodes: 2,
      events_per_second: Math.round(options.events / seconds),
      latency_ms: { p50: percentile(steadyLatencies, 50), p99: percentile(steadyLatencies, 99) },
      memory_per_device_kib: {
        relay: Number((relayPerDevice / 1024).toFixed(1)),
        device: Number((devicePerDevice / 1024).toFixed(1)),
      },
      cores_figures: {
        events: coresSteady.events,
        latency_ms: {
          p50: percentile(coresSteady.latencies, 50),
          p99: percentile(coresSteady.latencies, 99),
        },
        lost: coresSteady.lost,
      },
      node_killed: {
        events: options.events,
        lost: options.events * 2 - total(),
        cores_lost: coresExpectedAfter - receivedByCores(),
        longest_wait_ms: Math.max(0, ...killLatencies),
        all_delivered_after_s: Number(recovered.toFixed(1)),
      },
    };
    await store.close();
    print(figures);
    return figures;
  } finally {
    for (const stream of streams) stream.close();
    for (const core of cores) await core.close();
    for (const child of children) if (child.child.exitCode === null) child.child.kill('SIGTERM');
    await Promise.all(children.map((child) => child.exit));
    await sim.close();
    await redis.stop();
  }
}

function print(figures: RelayFigures) {
  const { cores_figures: cores, node_killed: killed } = figures;
  const rows: [string, string][] = [
    ['events delivered per second (light devices)', String(figures.events_per_second)],
    [
      'delivery latency p50 / p99 (platform POST → device)',
      `${figures.latency_ms.p50} ms / ${figures.latency_ms.p99} ms`,
    ],
    [
      'memory per connected device',
      `${figures.memory_per_device_kib.relay} KiB relay + ${figures.memory_per_device_kib.device} KiB device`,
    ],
    [`real cores: events received (lost)`, `${cores.events} (${cores.lost} lost)`],
    [
      'real cores: simulator rings → first event p50 / p99',
      `${cores.latency_ms.p50} ms / ${cores.latency_ms.p99} ms`,
    ],
    [
      `a node SIGKILLed under load (${killed.events} more events)`,
      `${killed.lost} lost, cores ${killed.cores_lost} lost; longest wait ${killed.longest_wait_ms} ms; all delivered ${killed.all_delivered_after_s} s after the kill`,
    ],
  ];
  console.log(
    `Relay: ${figures.devices} light devices + ${figures.cores} Callbar cores, 2 relay processes, Redis, the simulator (one run, this machine)`,
  );
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
}

// Run directly (`npm run bench:relay -- [DEVICES] [EVENTS] [CORES]`): the full run.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [devices, events, cores] = process.argv.slice(2).map(Number);
  relayBench({
    ...FULL_RUN,
    ...(devices ? { devices } : {}),
    ...(events ? { events } : {}),
    ...(cores ? { cores } : {}),
  }).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
