/**
 * The relay's entry point: `npm run relay` serves (configured by the environment, see
 * relay-config.ts); `npm run relay -- devices list` prints the known devices and
 * `npm run relay -- devices revoke <device-id>` removes one (its stream ends; it must activate
 * again). Device administration needs the shared store (RELAY_REDIS_URL).
 */
import { createLogger } from '../src-main/core/log/logger';
import { memoryStore } from './memory-store';
import { relayConfig } from './relay-config';
import { startRelay } from './relay-server';
import { redisStore } from './redis-store';

const USAGE = `Usage:
  npm run relay                              serve (see docs/relay.md for the environment)
  npm run relay -- devices list              list the devices (needs RELAY_REDIS_URL)
  npm run relay -- devices revoke DEVICE_ID  remove a device`;

async function main(args: string[]): Promise<number> {
  const config = relayConfig(process.env);
  const log = createLogger();
  if (args.length === 0) {
    const store = config.redisUrl ? redisStore(config.redisUrl, log) : memoryStore();
    const relay = await startRelay({ ...config, store, log });
    const stop = () => {
      void relay
        .close()
        .then(() => store.close())
        .finally(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    // Said once the handlers are in place: whoever waits for this line may stop it at once.
    log.info('relay listening', {
      origin: relay.origin,
      store: config.redisUrl ? 'redis' : 'embedded (single node)',
    });
    return new Promise(() => undefined);
  }
  if (args[0] !== 'devices' || !['list', 'revoke'].includes(args[1] ?? '')) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (!config.redisUrl) {
    process.stderr.write(
      'Set RELAY_REDIS_URL: the embedded store lives inside the running relay only.\n',
    );
    return 2;
  }
  const store = redisStore(config.redisUrl, log);
  try {
    if (args[1] === 'list') {
      const devices = await store.listDevices();
      if (devices.length === 0) process.stdout.write('No devices.\n');
      for (const device of devices) {
        process.stdout.write(
          `${device.device_id}  ${device.tenant_id}/${device.user_extension}  activated ${device.created_at}\n`,
        );
      }
      return 0;
    }
    const id = args[2];
    if (!id) {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    if (!(await store.removeDevice(id))) {
      process.stderr.write(`No device ${id}.\n`);
      return 1;
    }
    process.stdout.write(`Revoked ${id}.\n`);
    return 0;
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
