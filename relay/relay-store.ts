/**
 * What the relay keeps, behind one interface with two implementations: `memoryStore()` (embedded,
 * one node: the demo and small offices) and `redisStore()` (any number of stateless nodes sharing
 * Redis). Both keep the same things for the same lives under the same caps. Nothing here ever
 * holds a token, a credential or a confirmation key in plaintext: waiting activations are a key's
 * SHA-256, a public key and a proof's SHA-256; handoffs are HPKE ciphertext; confirmations and
 * devices carry a credential's SHA-256; queued deactivations the key's SHA-256.
 */

import { createHash } from 'node:crypto';
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
   * Keeps `value` under `name` for `ttlMs` unless something is kept there already (the first
   * registration holds); gives what was there, undefined when `value` was kept.
   */
  putWaiting(name: string, value: string, ttlMs: number): Promise<string | undefined>;
  /** What is kept under `name`; undefined when nothing (or it expired). */
  readWaiting(name: string): Promise<string | undefined>;
  /** Replaces what is kept under `name`, keeping its life; false when nothing was there. */
  updateWaiting(name: string, value: string): Promise<boolean>;
  /** Gives what is kept under `name` `ttlMs` more to live from now. */
  renewWaiting(name: string, ttlMs: number): Promise<void>;
  /** What is kept under `name`, removed (single use); undefined when none. */
  takeWaiting(name: string): Promise<string | undefined>;

  /**
   * Counts `member` in `pool` until `atMs + ttlMs` when the pool holds fewer than `cap` members
   * that are still counted (or `member` is one of them: its count is renewed); false when full.
   * Shared by every node: caps on what unauthenticated clients may keep.
   */
  admit(pool: string, member: string, cap: number, ttlMs: number, atMs: number): Promise<boolean>;
  /** `member` no longer counts in `pool`. */
  release(pool: string, member: string): Promise<void>;

  /** Puts `value` in the mailbox `box` (kept `ttlMs`), for one `pop` on any node. */
  push(box: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Takes the oldest value of `box`, waiting up to `timeoutMs` (or until `signal` aborts: a node
   * that drains); undefined when none came. A wait costs no connection of its own: pushes wake
   * it, and a value taken is never dropped.
   */
  pop(box: string, timeoutMs: number, signal?: AbortSignal): Promise<string | undefined>;

  addDevice(device: DeviceRecord): Promise<void>;
  deviceByCredential(credentialSha256: string): Promise<DeviceRecord | undefined>;
  /**
   * The ids of the user's devices, without reading their records (a call event's route: one
   * Redis command); one whose record is gone (a removal cut halfway) may be among them: `append`
   * with `known` skips it.
   */
  deviceIdsOf(tenantId: string, userExtension: string): Promise<string[]>;
  /** Whether a device with this credential is known (a stream's keep-alive check: one command). */
  isKnown(credentialSha256: string): Promise<boolean>;
  listDevices(): Promise<DeviceRecord[]>;
  /** Removes a device and its queue; false when there was none. */
  removeDevice(deviceId: string): Promise<boolean>;

  /**
   * Appends to a device's queue (bounded: the oldest go past {@link QUEUE_MAX_LENGTH}, and
   * `dropped` hears how many went); its offset, `<ms>-<ordinal>`: when it was queued and its
   * number in the device's queue (1, 2, …), so a gap in the numbers is messages dropped
   * (`lostBetween`). The same message (the same bytes) for the same device within
   * {@link REPEAT_WINDOW_MS} is appended once: the platform repeats a call a node took but could
   * not answer (it was killed between the two), and the desktop must not get it twice. A repeat
   * answers ''. With `known`, a device whose record is gone gets nothing (answers ''), checked in
   * the same step.
   */
  append(
    deviceId: string,
    data: string,
    options?: { known?: boolean; dropped?: (count: number) => void },
  ): Promise<string>;
  /** Up to `count` messages after offset `after` ('0-0' for all). */
  readAfter(deviceId: string, after: string, count: number): Promise<QueuedMessage[]>;
  /** Calls `onAppend` when something is appended to the device's queue, on any node. */
  watch(deviceId: string, onAppend: () => void): () => void;

  /**
   * The device (of `tenantId`) is placing a dial now: for `windowMs` it may receive up to
   * LEGS_PER_DIAL legs of events that name no user (the fallback, docs/relay.md).
   */
  noteDial(deviceId: string, tenantId: string, atMs: number, windowMs: number): Promise<void>;
  /** Devices of `tenantId` that noted a dial at or after `sinceMs`. */
  dialledSince(tenantId: string, sinceMs: number): Promise<string[]>;
  /** Counts one more leg given to the device since its dial; false past LEGS_PER_DIAL. */
  grantLeg(deviceId: string): Promise<boolean>;
  /** The devices a call leg of `tenantId` was routed to before (its later events go there). */
  legRoute(tenantId: string, legId: string): Promise<string[] | undefined>;
  setLegRoute(tenantId: string, legId: string, deviceIds: string[], ttlMs: number): Promise<void>;

  /**
   * Takes one token from the bucket `name` (a client address) filled at `rate`, at time `atMs`:
   * false when it is empty. Shared by every node using the store, so a client cannot multiply
   * its rate by the number of nodes.
   */
  takeToken(name: string, rate: Rate, atMs: number): Promise<boolean>;

  /** Resolves when the store answers (Redis: PING). */
  ping(): Promise<void>;

  close(): Promise<void>;
}

/**
 * The store did not answer (Redis down, unreachable, hung: a command timed out or its connection
 * is gone), as opposed to a request it refused. Answered 503 with Retry-After: the caller asks
 * again (the platform repeats its call, at this node or another), nothing was taken for done.
 */
export class StoreUnavailable extends Error {
  constructor(cause?: unknown) {
    super('The relay cannot reach its store just now; try again shortly.', { cause });
    this.name = 'StoreUnavailable';
  }
}

/** The most messages a device's queue keeps while it is offline (Redis: about this many). */
export const QUEUE_MAX_LENGTH = 1000;

/**
 * How many messages were dropped from a device's queue between offset `after` (what the desktop
 * handled last, '0-0' for none) and `next` (the first one still queued after it): the gap in
 * their ordinals (`append`). Queues written before offsets carried ordinals (Redis's own
 * `<ms>-<seq>`) give 0 or fewer than were dropped, never more.
 */
export function lostBetween(after: string, next: string): number {
  const ordinal = (offset: string) => BigInt(offset.split('-')[1] ?? '0');
  const lost = ordinal(next) - ordinal(after) - 1n;
  return lost > 0n ? Number(lost) : 0;
}

/**
 * How long an appended message is remembered, so that the platform's repeat of it is not
 * appended again (its retry after a node died mid-answer comes within seconds).
 */
export const REPEAT_WINDOW_MS = 2 * 60_000;

/** What marks a message as appended for {@link REPEAT_WINDOW_MS}: a digest of its bytes. */
export const messageMark = (data: string) =>
  createHash('sha256').update(data, 'utf8').digest('hex').slice(0, 32);

/** The most legs of events that name no user one dial note may bring a device. */
export const LEGS_PER_DIAL = 4;

/** Dial notes older than this are dropped (the fallback looks back seconds, not hours). */
export const DIAL_NOTES_KEPT_MS = 10 * 60_000;
