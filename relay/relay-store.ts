/**
 * What the relay keeps, behind one interface with two implementations: `memoryStore()` (embedded,
 * one node: the demo and small offices) and `redisStore()` (any number of stateless nodes sharing
 * Redis). Nothing here ever holds a token in plaintext: waiting activations are a key's SHA-256
 * and a public key, handoffs are HPKE ciphertext, devices are known by their credential's SHA-256.
 */

import type { Rate } from '../src-main/core/calls/token-bucket';

/** A desktop the relay hands events to; its credential is known by its SHA-256 only. */
export interface DeviceRecord {
  device_id: string;
  tenant_id: string;
  user_extension: string;
  credential_sha256: string;
  /** When it was activated (ISO 8601). */
  created_at: string;
}

/** One message of a device's queue, with its stream offset (`ms-seq`). */
export interface QueuedMessage {
  id: string;
  data: string;
}

export interface RelayStore {
  /**
   * A desktop waits for the activation of the key named `keySha256` with `publicKey` (also: an
   * attempt's connect link, under `connect:<nonce sha256>`).
   */
  putWaiting(keySha256: string, publicKey: string, ttlMs: number): Promise<void>;
  /** What waits under `keySha256`, removed (single use); undefined when none. */
  takeWaiting(keySha256: string): Promise<string | undefined>;
  /** Puts `value` in the mailbox `box` (kept `ttlMs`), for one `pop` on any node. */
  push(box: string, value: string, ttlMs: number): Promise<void>;
  /** Takes the oldest value of `box`, waiting up to `timeoutMs`; undefined when none came. */
  pop(box: string, timeoutMs: number): Promise<string | undefined>;

  addDevice(device: DeviceRecord): Promise<void>;
  deviceByCredential(credentialSha256: string): Promise<DeviceRecord | undefined>;
  devicesOf(tenantId: string, userExtension: string): Promise<DeviceRecord[]>;
  listDevices(): Promise<DeviceRecord[]>;
  /** Removes a device and its queue; false when there was none. */
  removeDevice(deviceId: string): Promise<boolean>;

  /** Appends to a device's queue (bounded: the oldest go past `maxLength`); its offset. */
  append(deviceId: string, data: string): Promise<string>;
  /** Up to `count` messages after offset `after` ('0-0' for all). */
  readAfter(deviceId: string, after: string, count: number): Promise<QueuedMessage[]>;
  /** Calls `onAppend` when something is appended to the device's queue, on any node. */
  watch(deviceId: string, onAppend: () => void): () => void;

  /** The device is placing a dial now (the fallback for events that name nobody). */
  noteDial(deviceId: string, atMs: number): Promise<void>;
  /** Devices that noted a dial at or after `sinceMs`. */
  dialledSince(sinceMs: number): Promise<string[]>;
  /** The devices a call leg was routed to before (its later events go to the same). */
  legRoute(legId: string): Promise<string[] | undefined>;
  setLegRoute(legId: string, deviceIds: string[], ttlMs: number): Promise<void>;

  /**
   * Takes one token from the bucket `name` (a client address) filled at `rate`, at time `atMs`:
   * false when it is empty. Shared by every node using the store, so a client cannot multiply
   * its rate by the number of nodes.
   */
  takeToken(name: string, rate: Rate, atMs: number): Promise<boolean>;

  close(): Promise<void>;
}

/** The most messages a device's queue keeps while it is offline. */
export const QUEUE_MAX_LENGTH = 1000;
