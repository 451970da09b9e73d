/**
 * The relay devices this profile stopped using: the one of a session replaced by a new activation
 * (Connect again, another user, `callbar activate --force`, a connect after the session ended) or
 * forgotten (Unsubscribe, `callbar deactivate-local`). Each is removed at the relay that issued it
 * (`DELETE /device` with its own credential, which removes only that device, its queue with it);
 * until then it waits in the keychain, in an entry of its own (Vault.readRetiredDevices), and is
 * tried again: when a stream of this profile serves its backlog (the relay answers again), at the
 * next command, and after a pause that grows. Before, the old device stayed at the relay until an
 * administrator revoked it, and the platform's call events for the user kept filling its queue
 * (up to 1,000 messages each).
 *
 * The credential goes only to the addresses the device was used with, and never to a log line. A
 * device the session in the keychain still holds is never removed (a retirement whose new session
 * could not be stored). A relay that does not know `DELETE /device` (404, 405, 501) is not asked
 * again; an entry the relay never answered for is dropped after RETIRED_KEPT_MS.
 */
import { z } from 'zod';
import type { SessionLock } from './session-lock';
import { errorMessage } from '../errors';
import type { Logger } from '../log/logger';
import type { StoredAccount } from '../vault/stored-account';
import type { Vault } from '../vault/vault';
import type { StateFile } from '../config/state-file';
import { DEVICE_PATHS } from '../relay/relay-protocol';
import type { RelayCursor } from '../relay/relay-cursor';

export type RelayDevice = NonNullable<StoredAccount['relay_device']>;

/** How many retired devices are kept at most (the newest). */
export const RETIRED_MOST = 16;

/** How long a retired device is tried at most (its relay may be gone for good). */
export const RETIRED_KEPT_MS = 30 * 24 * 60 * 60_000;

const RetiredDevice = z.object({
  device_id: z.string().min(1).max(64),
  credential: z.string().min(1).max(256),
  /** The relay addresses in use when it was retired: the only ones it is sent to. */
  relay_urls: z.array(z.string().min(1).max(2048)).min(1).max(16),
  retired_at: z.number().nonnegative(),
});
export type RetiredDevice = z.infer<typeof RetiredDevice>;

const RetiredList = z.array(RetiredDevice).max(RETIRED_MOST);

/**
 * What the relay said to a device's removal: removed now, already unknown (removed before,
 * revoked), the relay has no such request, or it could not be asked now (try again later).
 */
export type Removal = 'removed' | 'unknown' | 'unsupported' | 'later';

export interface RetiredDevicesOptions {
  vault: Pick<Vault, 'readRetiredDevices' | 'writeRetiredDevices' | 'load'>;
  /** The profile's session lock: every change of the entry is made holding it. */
  lock: SessionLock;
  log: Logger;
  /** The relay addresses in use (settings). */
  urls: string[];
  now: () => number;
  /** Where the profile's relay stream stopped: forgotten with the device it names. */
  cursor: StateFile<RelayCursor>;
}

export class RetiredDevices {
  readonly #options: RetiredDevicesOptions;
  /** Whether the entry may hold devices to remove (read once at first, then known here). */
  #pending = true;
  /** Counts this process's retirements: one during a sweep keeps it pending. */
  #retirements = 0;

  constructor(options: RetiredDevicesOptions) {
    this.#options = options;
  }

  /** Whether a sweep may have something to do. */
  get pending(): boolean {
    return this.#pending;
  }

  /**
   * The keychain's session becomes `next` (undefined: none): the relay devices it no longer holds
   * (the keychain's session's, and `held`, this process's) are kept for removal at the relay. The
   * caller holds the session lock, before the keychain changes. Never throws: the session's change
   * goes on (the device then stays at the relay, as before, and the failure is logged).
   */
  async retire(next: StoredAccount | undefined, held: StoredAccount | undefined): Promise<void> {
    const stored = await this.#options.vault.load().catch(() => undefined);
    const devices = [stored?.relay_device, held?.relay_device].filter(
      (device, index, all): device is RelayDevice =>
        device !== undefined &&
        device.device_id !== next?.relay_device?.device_id &&
        all.findIndex((each) => each?.device_id === device.device_id) === index,
    );
    if (devices.length === 0) return;
    try {
      const kept = await this.#read();
      const retired_at = this.#options.now();
      const added = devices
        .filter((device) => !kept.some((each) => each.device_id === device.device_id))
        // Sent only where it was issued (a session from before that was kept: the addresses now).
        .map((device) => ({
          ...device,
          relay_urls: device.relay_urls ?? this.#options.urls,
          retired_at,
        }));
      await this.#write([...kept, ...added].slice(-RETIRED_MOST));
      this.#pending = true;
      this.#retirements += 1;
    } catch (error) {
      this.#options.log.warn('could not keep the relay device to remove it later', {
        reason: errorMessage(error),
      });
    }
  }

  /**
   * Removes the retired devices at their relays (not `inUse`, nor one the keychain's session
   * holds). True when none is left to try again.
   */
  async sweep(inUse: string | undefined, signal: AbortSignal): Promise<boolean> {
    const { log, lock, vault, now } = this.#options;
    const retirements = this.#retirements;
    const listed = await this.#read();
    if (listed.length === 0) {
      this.#pending = retirements !== this.#retirements;
      return true;
    }
    // The keychain's session may be newer than this process's (another process connected).
    const stored = (await vault.load())?.relay_device?.device_id;
    const done = new Set<string>();
    let left = false;
    for (const device of listed) {
      if (signal.aborted) return false;
      if (device.device_id === inUse || device.device_id === stored) {
        left = true;
        continue;
      }
      if (now() - device.retired_at > RETIRED_KEPT_MS) {
        log.warn('gave up removing a relay device this computer no longer uses', {
          device: device.device_id,
        });
        done.add(device.device_id);
        continue;
      }
      const removal = await removeAtRelay(device, signal);
      if (removal === 'later') {
        left = true;
        continue;
      }
      log.info('the relay device this computer no longer uses was removed', {
        device: device.device_id,
        relay: removal,
      });
      done.add(device.device_id);
    }
    if (done.size > 0) {
      await lock.hold(async () => {
        // Read again: another process of the profile may have retired one meanwhile.
        const now = await this.#read();
        // A device the keychain's session holds stays (a retirement whose session was not stored).
        const current = (await vault.load())?.relay_device?.device_id;
        const kept = now.filter((each) => !done.has(each.device_id) || each.device_id === current);
        await this.#write(kept);
      });
    }
    if (done.size > 0) await this.#forgetCursor(done);
    this.#pending = left || retirements !== this.#retirements;
    return !left;
  }

  /** The profile's stream position, when it is one of `devices`' (a new device starts anew). */
  async #forgetCursor(devices: Set<string>): Promise<void> {
    const { cursor } = this.#options;
    const saved = await cursor.read().catch(() => undefined);
    if (saved && devices.has(saved.device_id)) await cursor.clear().catch(() => undefined);
  }

  async #read(): Promise<RetiredDevice[]> {
    const text = await this.#options.vault.readRetiredDevices();
    if (text === undefined) return [];
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const parsed = RetiredList.safeParse(raw);
    if (parsed.success) return parsed.data;
    this.#options.log.warn('the relay devices to remove were not readable; they are dropped');
    return [];
  }

  async #write(devices: RetiredDevice[]): Promise<void> {
    await this.#options.vault.writeRetiredDevices(
      devices.length > 0 ? JSON.stringify(devices) : undefined,
    );
  }
}

/** How long a device's removal may take at one address. */
const REMOVE_TIMEOUT_MS = 3_000;

/** The relay's answers to `DELETE /device` that settle it (anything else: try again later). */
const REMOVALS: Partial<Record<number, Removal>> = {
  200: 'removed',
  401: 'unknown',
  404: 'unsupported',
  405: 'unsupported',
  501: 'unsupported',
};

/**
 * Asks the relay to remove `device` (`DELETE /device` with its own credential: only the caller's
 * own device, its queue with it), at each of the addresses it was used with in turn until one
 * settles it; `later` when none did.
 */
export async function removeAtRelay(device: RetiredDevice, signal: AbortSignal): Promise<Removal> {
  for (const origin of device.relay_urls) {
    if (signal.aborted) break;
    try {
      const response = await fetch(`${origin}${DEVICE_PATHS.device}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${device.credential}` },
        redirect: 'error',
        signal: AbortSignal.any([signal, AbortSignal.timeout(REMOVE_TIMEOUT_MS)]),
      });
      await response.body?.cancel();
      const removal = REMOVALS[response.status];
      if (removal) return removal;
    } catch {
      // Not reached: the next address, or later.
    }
  }
  return 'later';
}
