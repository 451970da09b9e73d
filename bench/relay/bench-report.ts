/**
 * The relay bench's command line, its table, and the open-file limit it needs: every light
 * device holds a socket in this process, and after a node fails every device's stream is on the
 * other node, so this process and each relay node need a descriptor per device and some more.
 * A soft limit below that is raised to the hard limit for the run (a shell's `ulimit -n` before
 * this process starts again, inherited by the relay nodes and Redis); a hard limit below it is
 * said, with what to set.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { RedisKind } from './bench-redis';
import type { FailureFigures, RelayBenchOptions, RelayFigures, SetupFigures } from '../relay-bench';

/** Descriptors beyond one per device: the cores, the simulator, the platform's POSTs, Redis. */
const DESCRIPTOR_MARGIN = 2000;

/** This process's open-file limits (Linux); undefined where /proc does not say. */
function openFileLimits(): { soft: number; hard: number } | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((each) => each.startsWith('Max open files'));
    const [soft, hard] = (line ?? '').split(/\s{2,}/).slice(1, 3);
    const number = (value: string | undefined) =>
      value === 'unlimited' ? Infinity : Number(value ?? NaN);
    return line ? { soft: number(soft), hard: number(hard) } : undefined;
  } catch {
    return undefined;
  }
}

/** Throws, saying what to set, when `devices` cannot be held open under this process's limit. */
export function checkDescriptors(devices: number): void {
  const limits = openFileLimits();
  const needed = devices + DESCRIPTOR_MARGIN;
  if (limits && limits.soft < needed) {
    throw new Error(
      `${devices} devices need ${needed} open files in this process and in each relay node; ` +
        `the limit is ${limits.soft} (hard ${limits.hard}). Run \`ulimit -n ${needed}\` first ` +
        `(as root, or raise the hard limit: LimitNOFILE= in systemd, nofile in limits.conf).`,
    );
  }
}

/** Starts this command again under a shell that raised the soft limit to `to` (inherited). */
function againWithLimit(to: number): never {
  const result = spawnSync(
    'sh',
    [
      '-c',
      `ulimit -n ${to} && exec "$@"`,
      'sh',
      process.execPath,
      ...process.execArgv,
      ...process.argv.slice(1),
    ],
    { stdio: 'inherit', env: { ...process.env, CALLBAR_BENCH_LIMIT_RAISED: '1' } },
  );
  process.exit(result.status ?? 1);
}

const HELP = `npm run bench:relay -- [options]
  --devices N       light devices (default 10000)
  --flood N         events of the flood (default 10000)
  --rate N          events a second while measuring latency and during failures (default 1000)
  --seconds N       seconds of the paced phase (default 10)
  --cores N         real Callbar cores, at most 4 (default 4)
  --redis KIND      standalone, cluster, or both (default both)
  --json            the figures as one JSON object on the last line`;

/** `npm run bench:relay`: options, the open-file limit, the run, the JSON. */
export function relayBenchMain(
  defaults: RelayBenchOptions,
  bench: (options: RelayBenchOptions) => Promise<RelayFigures>,
): void {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string' },
      flood: { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
      cores: { type: 'string' },
      redis: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const number = (value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 0) {
      console.error(`Not a whole number: ${value}\n\n${HELP}`);
      process.exit(2);
    }
    return parsed;
  };
  const kinds: Record<string, RedisKind[]> = {
    standalone: ['standalone'],
    cluster: ['cluster'],
    both: ['standalone', 'cluster'],
  };
  const redis = kinds[values.redis ?? 'both'];
  if (!redis) {
    console.error(`--redis is standalone, cluster or both\n\n${HELP}`);
    process.exit(2);
  }
  const options: RelayBenchOptions = {
    ...defaults,
    devices: number(values.devices, defaults.devices),
    floodEvents: number(values.flood, defaults.floodEvents),
    rate: number(values.rate, defaults.rate),
    steadySeconds: number(values.seconds, defaults.steadySeconds),
    cores: Math.min(4, number(values.cores, defaults.cores)),
    redis,
  };
  const limits = openFileLimits();
  const needed = options.devices + DESCRIPTOR_MARGIN;
  if (
    limits &&
    limits.soft < needed &&
    limits.hard >= needed &&
    !process.env.CALLBAR_BENCH_LIMIT_RAISED
  ) {
    againWithLimit(needed);
  }
  bench(options).then(
    (figures) => {
      if (values.json) console.log(JSON.stringify(figures));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

const failureCell = (failure: FailureFigures | undefined) =>
  failure
    ? `${failure.lost} / ${failure.duplicated} of ${failure.accepted}; longest ${failure.longest_wait_ms} ms`
    : '— (one server)';

/** The table: a row per figure, a column per Redis set-up. */
export function printRelayFigures(figures: RelayFigures, options: RelayBenchOptions): void {
  const rows: [string, (setup: SetupFigures) => string][] = [
    ['streams open and served (s)', (s) => String(s.connect_seconds)],
    ['events delivered per second (flood)', (s) => String(s.events_per_second)],
    [
      `p50 / p99 POST → device at ${options.rate}/s asked`,
      (s) => `${s.paced.p50_ms} / ${s.paced.p99_ms} ms (${s.paced.reached_per_second}/s sent)`,
    ],
    [
      'CPU per paced event: bench / relay nodes / Redis',
      (s) =>
        `${s.paced.cpu_ms_per_event.bench} / ${s.paced.cpu_ms_per_event.relay} / ${s.paced.cpu_ms_per_event.redis} ms`,
    ],
    [
      'memory per device: relay / Redis / device',
      (s) =>
        `${s.memory_per_device_kib.relay} / ${s.memory_per_device_kib.redis} / ${s.memory_per_device_kib.device} KiB`,
    ],
    [
      'steady: lost / duplicated of accepted',
      (s) => `${s.steady.lost} / ${s.steady.duplicated} of ${s.steady.accepted}`,
    ],
    [
      'cores: events, lost / duplicated (calls not placed)',
      (s) => `${s.cores.events}, ${s.cores.lost} / ${s.cores.duplicated} (${s.cores.skipped})`,
    ],
    ['cores: ring → first event p50 / p99', (s) => `${s.cores.p50_ms} / ${s.cores.p99_ms} ms`],
    ['relay SIGKILL: lost / duplicated', (s) => failureCell(s.relay_sigkill)],
    [
      'SIGTERM drain: lost / duplicated',
      (s) =>
        `${failureCell(s.sigterm_drain)}; exit ${s.sigterm_drain.exit_code} in ${s.sigterm_drain.exit_seconds} s`,
    ],
    [
      'SIGTERM drain: exit decided by the node, after',
      (s) =>
        Number.isFinite(s.sigterm_drain.node_exit_seconds)
          ? `${s.sigterm_drain.node_exit_seconds} s${s.sigterm_drain.node_exit_by_deadline ? ' (its 9.5 s guard: the drain unfinished)' : ''}`
          : 'not in its log',
    ],
    ['master failover: lost / duplicated', (s) => failureCell(s.master_failover)],
    [
      'misrouted / unknown ids / given up / POSTs repeated',
      (s) => {
        const phases = [s.steady, s.relay_sigkill, s.sigterm_drain, s.master_failover];
        const sum = (field: 'misrouted' | 'given_up' | 'retried') =>
          phases.reduce((total, phase) => total + (phase?.[field] ?? 0), 0);
        return `${sum('misrouted')} / ${s.unknown} / ${sum('given_up')} / ${sum('retried')}`;
      },
    ],
  ];
  const first = figures.setups[0];
  console.log(
    `Relay: ${first?.devices ?? 0} light devices + ${first?.cores.count ?? 0} Callbar cores, 2 relay processes; ` +
      `load average ${figures.load_average.start} at the start, ${figures.load_average.end} at the end`,
  );
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const cells = rows.map(([label, cell]) => [label, ...figures.setups.map(cell)]);
  const widths = figures.setups.map((setup, index) =>
    Math.max(setup.redis.length, ...cells.map((row) => row[index + 1]!.length)),
  );
  console.log(
    `  ${''.padEnd(labelWidth)}  ${figures.setups.map((setup, index) => setup.redis.padEnd(widths[index]!)).join('  ')}`,
  );
  for (const row of cells) {
    console.log(
      `  ${row[0]!.padEnd(labelWidth)}  ${row
        .slice(1)
        .map((cell, index) => cell.padEnd(widths[index]!))
        .join('  ')}`,
    );
  }
}
