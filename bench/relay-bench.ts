/**
 * The relay under load on this machine (issue 43's table): `npm run bench:relay` (10,000 light
 * devices; `-- --help` for the options, `--json` for the figures as JSON), and a reduced run as
 * part of `npm run bench` (bench/index.ts).
 *
 * The same run twice, side by side: on one redis-server, and on a Redis Cluster of three masters
 * with a replica each (RELAY_REDIS_CLUSTER_NODES), both started as the relay's tests start them.
 * Each time two relay nodes as an administrator runs them (`npm run relay` processes), CORES real
 * Callbar cores (activated through the simulator's portal and the relay, rung by the simulator),
 * and DEVICES light devices (real stream clients reading the stream as raw lines with RelayLink's
 * rules, bench/relay/bench-device.ts, in this process).
 * The bench POSTs the light devices' call events as the platform would (repeating one a node
 * did not take at the other node, the same event with the same id), and counts them by id
 * (bench/relay/bench-events.ts).
 *
 * Phases: devices connect (memory per device: the relay processes, Redis's used_memory, this
 * process); a flood (events delivered per second); events paced at RATE a second (p50/p99
 * platform POST → device); the cores rung; then, each while events keep coming at RATE: a relay
 * node SIGKILLed (cores rung too), the other node drained by SIGTERM (its devices move on the
 * reconnect hint), and on the cluster a master SIGKILLed (its replica promoted). Lost and
 * duplicated are counted per phase once everything has arrived, by event id.
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { redisStore } from '../relay/redis-store';
import { startSimulator } from '../simulator/index';
import { SimControl } from '../simulator/control-client';
import { silentLogger } from '../src-main/core/log/logger';
import { relayAddresses } from '../test/support/relay-addresses';
import { startBenchCores } from './relay/bench-cores';
import { cpuMeter, type CpuPerEvent } from './relay/bench-cpu';
import { benchPlatform, EventLedger, type PhaseCount } from './relay/bench-events';
import { connectFleet, deviceId } from './relay/bench-fleet';
import { startBenchNodes, type Drained } from './relay/bench-nodes';
import { startBenchRedis, type RedisKind } from './relay/bench-redis';
import { checkDescriptors, printRelayFigures, relayBenchMain } from './relay/bench-report';

const SECRET = 'relay-bench-webhook-secret-0123456789ab';
const TENANT = 'bench';
const extension = (device: number) => String(100_000 + device);

export interface RelayBenchOptions {
  /** Light devices (real stream clients). */
  devices: number;
  /** Events of the flood (delivered per second). */
  floodEvents: number;
  /** Events a second while measuring latency and while a node or a master fails. */
  rate: number;
  /** Seconds of the paced phase. */
  steadySeconds: number;
  /** Seconds of each failure phase (the failure a third in). */
  failureSeconds: number;
  /** Real Callbar cores (at most the simulator's users: 4), and calls each, per ringing. */
  cores: number;
  callsPerCore: number;
  redis: RedisKind[];
}

export const FULL_RUN: RelayBenchOptions = {
  devices: 10_000,
  floodEvents: 10_000,
  rate: 1000,
  steadySeconds: 10,
  failureSeconds: 9,
  cores: 4,
  callsPerCore: 20,
  redis: ['standalone', 'cluster'],
};
export const REDUCED_RUN: RelayBenchOptions = {
  devices: 200,
  floodEvents: 1000,
  rate: 200,
  steadySeconds: 2,
  failureSeconds: 3,
  cores: 1,
  callsPerCore: 3,
  redis: ['standalone', 'cluster'],
};

export interface FailureFigures extends PhaseCount {
  /** The longest an event of the phase waited (platform's first POST → device), ms. */
  longest_wait_ms: number;
  p99_ms: number;
}

export interface SetupFigures {
  redis: RedisKind;
  devices: number;
  nodes: 2;
  /** Until every light device's stream had served its backlog. */
  connect_seconds: number;
  events_per_second: number;
  paced: {
    asked_per_second: number;
    reached_per_second: number;
    p50_ms: number;
    p99_ms: number;
    /** CPU milliseconds per event of the paced phase: this process, the nodes, Redis. */
    cpu_ms_per_event: CpuPerEvent;
  };
  memory_per_device_kib: { relay: number; redis: number; device: number };
  /** The flood and the paced phase together. */
  steady: PhaseCount;
  cores: {
    count: number;
    events: number;
    lost: number;
    duplicated: number;
    /** Calls the simulator's control API did not place (a reset connection). */
    skipped: number;
    p50_ms: number;
    p99_ms: number;
  };
  relay_sigkill: FailureFigures;
  sigterm_drain: FailureFigures & {
    exit_code: number | null;
    /** SIGTERM → the process's exit, timed by the bench (its own loop busy then). */
    exit_seconds: number;
    /** SIGTERM → the node's exit decision, as the node logs it (`relay exits`). */
    node_exit_seconds: number;
    /** Whether the node's 9.5 s guard decided it (the drain had not finished by then). */
    node_exit_by_deadline: boolean | null;
  };
  /** The cluster only. */
  master_failover?: FailureFigures;
  /** Deliveries of ids the bench never sent (should be none). */
  unknown: number;
}

export interface RelayFigures {
  load_average: { start: number; end: number };
  setups: SetupFigures[];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const kib = (bytes: number) => Number((bytes / 1024).toFixed(1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function relayBench(options: RelayBenchOptions): Promise<RelayFigures> {
  checkDescriptors(options.devices);
  const start = Number(loadavg()[0]!.toFixed(1));
  const setups: SetupFigures[] = [];
  for (const kind of options.redis) setups.push(await runSetup(kind, options));
  const figures = { load_average: { start, end: Number(loadavg()[0]!.toFixed(1)) }, setups };
  printRelayFigures(figures, options);
  return figures;
}

async function runSetup(kind: RedisKind, options: RelayBenchOptions): Promise<SetupFigures> {
  const cleanup: (() => Promise<void> | void)[] = [];
  const began = Date.now();
  /** Where the run is, on stderr (a full run takes minutes). */
  const progress = (text: string) =>
    process.stderr.write(`  [${kind} ${Math.round((Date.now() - began) / 1000)} s] ${text}\n`);
  try {
    const redis = await startBenchRedis(kind);
    cleanup.unshift(() => redis.stop());
    const nodes = await startBenchNodes({
      ...process.env,
      ...redis.env,
      RELAY_WEBHOOK_SECRET: SECRET,
      // The bench is one client address sending everything.
      RELAY_RATE_BURST: '1000000000',
      RELAY_RATE_PER_SECOND: '1000000000',
      // Its 10,000 streams, too.
      RELAY_CONNECTIONS_PER_ADDRESS: '1000000',
    });
    cleanup.unshift(() => nodes.stop());
    const [a, b] = nodes.origins;
    const store = redisStore(redis.target, silentLogger);
    cleanup.unshift(() => store.close());

    const sim = await startSimulator({ contacts: 20, autoAnswer: false, profile: 'rich' });
    cleanup.unshift(() => sim.close());
    const control = new SimControl(sim.base_url);
    // The platform's deliveries for the cores go to node 1 (node 0 is the one SIGKILLed).
    await control.putIntegration(
      'callbar',
      relayAddresses({ activate: a, deactivate: b, events: b }, SECRET),
    );
    const cores = await startBenchCores({
      control,
      sim,
      origins: [a, b],
      count: options.cores,
    });
    cleanup.unshift(() => cores.close());
    progress(`${cores.count} cores activated; connecting ${options.devices} devices`);

    // --- Light devices: memory per device ----------------------------------------------------
    const before = {
      relay: nodes.rss(),
      redis: await redis.usedMemory(),
      device: process.memoryUsage().rss,
    };
    const ledger = new EventLedger();
    const fleet = await connectFleet({
      store,
      origins: [a, b],
      devices: options.devices,
      tenant: TENANT,
      extension,
      ledger,
    });
    cleanup.unshift(() => fleet.close());
    const perDevice = (after: number, was: number) => kib((after - was) / options.devices);
    const memory = {
      relay: perDevice(nodes.rss(), before.relay),
      redis: perDevice(await redis.usedMemory(), before.redis),
      device: perDevice(process.memoryUsage().rss, before.device),
    };
    progress(`devices connected in ${fleet.connectSeconds.toFixed(1)} s; the flood`);
    const platform = benchPlatform({
      origins: () => [a, b],
      secret: SECRET,
      tenant: TENANT,
      devices: options.devices,
      extension,
      ledger,
    });
    /** Waits (a minute at most) until every accepted event of `phases` arrived. */
    const settle = async (...phases: string[]) => {
      const deadline = Date.now() + 60_000;
      while (!ledger.complete(...phases) && Date.now() < deadline) await sleep(20);
    };

    // --- Flood, then paced -----------------------------------------------------------------
    const floodStart = Date.now();
    await platform.flood('flood', options.floodEvents);
    await settle('flood');
    const eventsPerSecond = Math.round(
      options.floodEvents / ((ledger.lastDelivery - floodStart) / 1000),
    );
    progress(
      `${eventsPerSecond} events/s; ${options.rate} a second for ${options.steadySeconds} s`,
    );
    const cpu = cpuMeter();
    const reached = await platform.paced('paced', options.rate, options.steadySeconds);
    await settle('paced');
    const pacedCpu = cpu.per(ledger.count('paced').accepted);
    const paced = ledger.latencies('paced');
    await cores.ring(options.callsPerCore);
    const coresSteady = await cores.tally();

    // --- Failures, each while events keep coming -------------------------------------------
    progress('node 0 SIGKILLed under load');
    await Promise.all([
      platform.paced('sigkill', options.rate, options.failureSeconds, {
        atSecond: options.failureSeconds / 3,
        run: () => nodes.kill(0),
      }),
      cores.ring(options.callsPerCore),
    ]);
    await nodes.restart(0);
    progress('node 1 drained (SIGTERM) under load');
    let drained: (Drained & { seconds: number }) | undefined;
    await platform.paced('drain', options.rate, options.failureSeconds, {
      atSecond: options.failureSeconds / 3,
      run: async () => {
        const at = Date.now();
        const exit = await nodes.drain(1);
        drained = { ...exit, seconds: (Date.now() - at) / 1000 };
      },
    });
    await nodes.restart(1);
    const failover = redis.failover;
    if (failover) {
      progress('a Redis master SIGKILLed under load');
      await platform.paced('failover', options.rate, options.failureSeconds, {
        atSecond: options.failureSeconds / 3,
        // The master of a device's keys (a third of the devices' queues live there).
        run: () => failover(`callbar:relay:queue:{${deviceId(0)}}`),
      });
    }
    const phases = ['flood', 'paced', 'sigkill', 'drain', ...(failover ? ['failover'] : [])];
    progress('waiting for the last events');
    await settle(...phases);
    // A late second copy of an event still counts.
    await sleep(1000);
    const coresAfter = await cores.tally();

    const steady = ledger.count('flood');
    const pacedCount = ledger.count('paced');
    for (const field of Object.keys(steady) as (keyof PhaseCount)[]) {
      steady[field] += pacedCount[field];
    }
    const failure = (phase: string): FailureFigures => ({
      ...ledger.count(phase),
      longest_wait_ms: ledger.latencies(phase).reduce((most, each) => Math.max(most, each), 0),
      p99_ms: percentile(ledger.latencies(phase), 99),
    });
    return {
      redis: kind,
      devices: options.devices,
      nodes: 2,
      connect_seconds: Number(fleet.connectSeconds.toFixed(1)),
      events_per_second: eventsPerSecond,
      paced: {
        asked_per_second: options.rate,
        reached_per_second: reached,
        p50_ms: percentile(paced, 50),
        p99_ms: percentile(paced, 99),
        cpu_ms_per_event: pacedCpu,
      },
      memory_per_device_kib: memory,
      steady,
      cores: {
        count: cores.count,
        events: coresAfter.events,
        lost: coresAfter.lost,
        duplicated: coresAfter.duplicated,
        skipped: coresAfter.skipped,
        p50_ms: percentile(coresSteady.latencies, 50),
        p99_ms: percentile(coresSteady.latencies, 99),
      },
      relay_sigkill: failure('sigkill'),
      sigterm_drain: {
        ...failure('drain'),
        exit_code: drained?.code ?? null,
        exit_seconds: Number((drained?.seconds ?? NaN).toFixed(1)),
        node_exit_seconds: Number((drained?.nodeSeconds ?? NaN).toFixed(2)),
        node_exit_by_deadline: drained?.byDeadline ?? null,
      },
      ...(failover ? { master_failover: failure('failover') } : {}),
      unknown: ledger.unknown,
    };
  } finally {
    for (const step of cleanup) await step();
  }
}

// Run directly: the full run (`npm run bench:relay -- --help`).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  relayBenchMain(FULL_RUN, relayBench);
}
