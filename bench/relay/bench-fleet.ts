/**
 * Light devices for the relay bench: each a device record in the store and one real stream
 * client (Callbar's own RelayLink, its offset kept in memory), alternately preferring node 0 and
 * node 1, all in this process. Each call event a device receives goes to the ledger by its id.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { RelayStore } from '../../relay/relay-store';
import { memoryStateFile } from '../../src-main/core/config/state-file';
import { silentLogger } from '../../src-main/core/log/logger';
import {
  RelayLink,
  type RelayCursor,
  type RelayStream,
} from '../../src-main/core/relay/relay-link';
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
  const streams: RelayStream[] = [];
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
        const link = new RelayLink({
          urls: device % 2 === 0 ? [a, b] : [b, a],
          log: silentLogger,
          cursor: memoryStateFile<RelayCursor>(),
          maxBackoffMs: 500,
        });
        return link.connect(
          { device_id: deviceId(device), credential: credentials[index]! },
          (message) => {
            if (message.type === 'event') options.ledger.delivered(device, message.event.id);
            return Promise.resolve();
          },
          () => undefined,
        );
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
