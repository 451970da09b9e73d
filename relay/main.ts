/**
 * The relay's entry point: `npm run relay` serves (configured by the environment, see
 * relay-config.ts); `npm run relay -- devices list` prints the known devices and
 * `npm run relay -- devices revoke <device-id>` removes one (its stream ends; it must activate
 * again). Device administration needs the shared store (RELAY_REDIS_URL).
 */
import { createLogger, type LogFields } from '../src-main/core/log/logger';
import { terminalField, terminalOutput } from '../src-main/core/text/terminal-text';
import { memoryStore } from './memory-store';
import { relayConfig, type RelayConfig } from './relay-config';
import { relayMetrics, serveMetrics } from './relay-metrics';
import { startRelay } from './relay-server';
import { redisStore, type RedisTarget } from './redis-store';

const USAGE = `Usage:
  npm run relay                              serve (see docs/relay.md for the environment)
  npm run relay -- devices list              list the devices (needs RELAY_REDIS_URL)
  npm run relay -- devices revoke DEVICE_ID  remove a device`;

/** Writes `text` as the terminal should get it: what came from outside cannot steer it. */
const print = (stream: NodeJS.WriteStream, text: string) => stream.write(terminalOutput(text));

/** The shared store configured: a cluster, one Redis, or none (the embedded store). */
const redisTarget = (config: RelayConfig): RedisTarget | undefined =>
  config.redisCluster ? { cluster: config.redisCluster } : config.redisUrl;

/** How long a stopping relay may take (the orchestrator's grace period is longer: 30 s). */
const STOP_DEADLINE_MS = 10_000;

/**
 * Serves until SIGTERM or SIGINT, then drains (relay-server.ts) and exits within 10 s: whatever
 * is still under way then is cut (the desktops resume at another node, from their offset).
 */
async function serve(config: RelayConfig): Promise<number> {
  const metrics = relayMetrics();
  const early = createLogger();
  const target = redisTarget(config);
  const store = target
    ? redisStore(target, early, { onError: () => metrics.redisErrors.inc() })
    : memoryStore();
  const relay = await startRelay({
    ...config,
    store,
    log: early,
    metrics,
    logLevel: config.logLevel,
  });
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : await serveMetrics(metrics, config.metricsPort, config.host);
  const stop = (signal: NodeJS.Signals) => {
    // The node's own figure, on its monotonic clock, from the moment its loop takes the signal.
    const at = performance.now();
    let exiting = false;
    const exit = (fields: LogFields) => {
      if (exiting) return;
      exiting = true;
      relay.log.info('relay exits', {
        signal,
        after_ms: Math.round(performance.now() - at),
        ...fields,
      });
      // Once that line (and every line before it) is out: a pipe the log goes to may be behind.
      void exitWhenWritten(0, STOP_DEADLINE_MS - (performance.now() - at));
    };
    // The guard: whatever is still under way then is cut.
    setTimeout(() => exit({ deadline: true }), STOP_DEADLINE_MS - 500).unref();
    relay
      .drain(STOP_DEADLINE_MS - 2000)
      .then(async ({ streams, callsCut }) => {
        await metricsServer?.close();
        await store.close();
        exit({ deadline: false, streams, calls_cut: callsCut });
      })
      .catch((error: unknown) => exit({ deadline: false, error }));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // Said once the handlers are in place: whoever waits for this line may stop it at once.
  relay.log.info('relay listening', {
    origin: relay.origin,
    store: config.redisCluster
      ? 'redis cluster'
      : config.redisUrl
        ? 'redis'
        : 'embedded (single node)',
    ...(metricsServer ? { metrics: `${metricsServer.origin}/metrics` } : {}),
  });
  return new Promise(() => undefined);
}

async function main(args: string[]): Promise<number> {
  const config = relayConfig(process.env);
  const log = createLogger(undefined, 'warn');
  if (args.length === 0) return serve(config);
  if (args[0] !== 'devices' || !['list', 'revoke'].includes(args[1] ?? '')) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const target = redisTarget(config);
  if (!target) {
    process.stderr.write(
      'Set RELAY_REDIS_URL or RELAY_REDIS_CLUSTER_NODES: the embedded store lives inside the running relay only.\n',
    );
    return 2;
  }
  const store = redisStore(target, log);
  try {
    if (args[1] === 'list') {
      const devices = await store.listDevices();
      if (devices.length === 0) print(process.stdout, 'No devices.\n');
      for (const device of devices) {
        // Each value as one line of plain text (terminal-text.ts): a tenant or extension stored
        // before the relay checked their shape cannot set a title or clear the screen.
        const [id, tenant, extension, at] = [
          device.device_id,
          device.tenant_id,
          device.user_extension,
          device.created_at,
        ].map(terminalField);
        print(process.stdout, `${id}  ${tenant}/${extension}  activated ${at}\n`);
      }
      return 0;
    }
    const id = args[2];
    if (!id) {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    if (!(await store.removeDevice(id))) {
      print(process.stderr, `No device ${terminalField(id)}.\n`);
      return 1;
    }
    print(process.stdout, `Revoked ${terminalField(id)}.\n`);
    return 0;
  } finally {
    await store.close();
  }
}

/** How long a command's last output may take to reach a reader that is behind. */
const OUTPUT_DEADLINE_MS = 10_000;

/**
 * Exits with `code` once everything written to stdout and stderr is out, or after `withinMs` at
 * most (a reader that stopped reading cannot hold the process). On a pipe Node writes
 * asynchronously: `process.exit` right after a write drops what the pipe has not taken yet (a
 * long `devices list`, a node's last log lines while its reader is behind).
 */
async function exitWhenWritten(code: number, withinMs: number): Promise<never> {
  const written = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => stream.write('', () => resolve()));
  const timer = setTimeout(() => process.exit(code), Math.max(0, withinMs));
  await Promise.all([written(process.stdout), written(process.stderr)]);
  clearTimeout(timer);
  process.exit(code);
}

main(process.argv.slice(2)).then(
  (code) => exitWhenWritten(code, OUTPUT_DEADLINE_MS),
  (error: unknown) => {
    print(process.stderr, `${error instanceof Error ? error.message : String(error)}\n`);
    return exitWhenWritten(1, OUTPUT_DEADLINE_MS);
  },
);
