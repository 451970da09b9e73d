/**
 * Light devices for the relay bench: each a device record in the store and one stream client
 * (bench-device.ts: the device protocol's stream read as raw lines, as RelayLink reads it),
 * alternately preferring node 0 and node 1, all in this process. Each call event a device
 * receives goes to the ledger by its id. (The 4 real cores of bench-cores.ts use RelayLink.)
 */
import { createHash, randomBytes } from 'node:crypto';
import type { RelayStore } from '../../relay/relay-store';
import { lightStream, type LightStream } from './bench-device';
import type { EventLedger } from './bench-events';

export interface Fleet {
  /** Seconds until every stream had served its backlog ("ready"). */
  connectSeconds: number;
  close(): void;
}

/** Devices registered, and streams opened, this many at a time. */
const WAVE = 1000;

export const deviceId = (device: number) => `bench-${device}`;

export async function connectFleet(options: {
  store: RelayStore;
  origins: [string, string];
  devices: number;
  tenant: string;
  extension: (device: number) => string;
  ledger: EventLedger;
}): Promise<Fleet> {
  const streams: LightStream[] = [];
  const started = Date.now();
  try {
    for (let first = 0; first < options.devices; first += WAVE) {
      const wave = Array.from(
        { length: Math.min(WAVE, options.devices - first) },
        (_, offset) => first + offset,
      );
      const credentials = await Promise.all(
        wave.map(async (device) => {
          const credential = randomBytes(32).toString('base64url');
          await options.store.addDevice({
            device_id: deviceId(device),
            tenant_id: options.tenant,
            user_extension: options.extension(device),
            credential_sha256: createHash('sha256').update(credential).digest('hex'),
            created_at: new Date().toISOString(),
          });
          return credential;
        }),
      );
      const opened = wave.map((device, index) => {
        const [a, b] = options.origins;
        return lightStream({
          urls: device % 2 === 0 ? [a, b] : [b, a],
          credential: credentials[index]!,
          maxBackoffMs: 500,
          onEvent: (id) => options.ledger.delivered(device, id),
        });
      });
      streams.push(...opened);
      await Promise.all(opened.map((stream) => stream.ready));
    }
  } catch (error) {
    for (const stream of streams) stream.close();
    throw error;
  }
  return {
    connectSeconds: (Date.now() - started) / 1000,
    close: () => {
      for (const stream of streams) stream.close();
    },
  };
}
