/**
 * The format of `calls.json` (the call log, call-log.ts), owned here rather than by the IPC
 * contract: a call is stored as StoredCall, this file's own schema, so a field added to or changed
 * in the contract's `Call` cannot silently change what is on disk. Today the two have the same
 * shape (the type check at the end says so); when the contract's Call changes, that check fails
 * to compile and the change is decided here: a new format version with a migration, or a mapping.
 *
 * Version 1 is the format since the log was first written (it always carried `version: 1`); a
 * newer version is kept aside by CallLogFile.read, never overwritten.
 */
import { z } from 'zod';
import type { Call } from '../../../src-shared/contract';
import { AccountOwner } from '../account/account-history';
import { fileFormat } from '../config/file-format';
import { SaidFormat } from '../text/said-format';

/** A call as stored (format version 1). */
export const StoredCall = z.object({
  id: z.string(),
  direction: z.enum(['outgoing', 'incoming']),
  state: z.enum([
    'dialing',
    'calling-you',
    'ringing',
    'connected',
    'in-progress',
    'ended',
    'failed',
  ]),
  party: z.object({
    number: z.string(),
    display: z.string(),
    /** Shown again for the region when the window is sent the call (recent-calls.ts). */
    number_shown: z.string().optional(),
    /** A written extension's digits (the reader takes up to 8), shown and never dialled. */
    extension: z
      .string()
      .regex(/^\d{1,8}$/)
      .optional(),
    name: z.string().optional(),
    company: z.string().optional(),
    contact_id: z.number().int().optional(),
  }),
  source: z.enum(['ui', 'tray', 'tel-link', 'shortcut', 'cli']).optional(),
  /** ISO 8601. */
  started_at: z.string(),
  connected_at: z.string().optional(),
  ended_at: z.string().optional(),
  leg_ids: z.array(z.string()),
  reason: z.string().optional(),
  /** Keys to press once the call is answered (added within version 1: older readers drop it). */
  keys: z.string().optional(),
});
export type StoredCall = z.infer<typeof StoredCall>;

export const LegRecord = z.object({
  id: z.string(),
  state: z.enum(['ringing', 'answered', 'bridged', 'ended']).optional(),
  /** Whether this is the user's own leg, when an event said so. */
  own: z.boolean().optional(),
  /** caller / callee, when an event said so. */
  role: z.string().optional(),
  /**
   * Attached by the `{id}`-only attribution rule (an unknown leg that arrived within seconds of
   * the call's news), not by an id the platform gave: such legs are capped per call.
   */
  guessed: z.boolean().optional(),
  /** The highest event sequence applied to this leg (to ignore older deliveries). */
  sequence: z.number().optional(),
  /**
   * The lowest event sequence seen of this leg: where the platform put it among the call's legs,
   * whatever order its events arrived in (Hang up tries the legs in that order).
   */
  first_sequence: z.number().optional(),
});
export type LegRecord = z.infer<typeof LegRecord>;

/** A call with what the tracker needs to follow it (times in ms since the epoch). */
export const CallRecord = z.object({
  call: StoredCall,
  /**
   * Why the call ended or failed, as a catalog key and values (`call.reason` is its English, for
   * logs, `--json` and older readers): whoever shows the call words it in the reader's language.
   */
  reason_said: SaidFormat.optional(),
  /**
   * Whose call this is: the account and platform connected when Callbar placed or first saw it.
   * Only the calls of the account connected now are shown; calls without an owner (logs from
   * before it was kept) are nobody's and stay hidden.
   */
  owner: AccountOwner.optional(),
  /** The platform's id of the call, when the dial answer or an event gave one. */
  platform_call_id: z.string().optional(),
  /**
   * The platform's events for this call name its call_id: a leg whose event names none is not
   * taken to be one of its legs.
   */
  events_name_call: z.boolean().optional(),
  legs: z.array(LegRecord),
  /**
   * Orders the calls, newest first: when it began, or just after the newest call kept then
   * (the clock set back since; call.started_at is the clock's).
   */
  started_ms: z.number(),
  /** When anything about this call last changed (merging keeps the newest). */
  updated_ms: z.number(),
  /** When the platform last said something about it (for expiry). */
  news_ms: z.number(),
  /** Recent delivery keys, to recognise repeated deliveries. */
  delivery_keys: z.array(z.string()),
  /** The events as they arrived (the newest few), for diagnosis. */
  events: z.array(z.unknown()),
});
export type CallRecord = z.infer<typeof CallRecord>;

/**
 * A clear of the recent calls that can be undone until `until_ms`: the ended calls last changed
 * at or before `covers_ms` are hidden, not gone, until then (`pending`); undone, they show again;
 * `done`, they were cleared (cleared_ms covers them). Of two versions the later `at_ms` wins (on a
 * tie, the one that is no longer pending).
 */
export const Clearing = z.object({
  /** When it was pressed, undone or done. */
  at_ms: z.number(),
  covers_ms: z.number(),
  until_ms: z.number(),
  state: z.enum(['pending', 'undone', 'done']),
});
export type Clearing = z.infer<typeof Clearing>;

export const CallLog = z.object({
  /** Newest first. */
  calls: z.array(CallRecord),
  /** Ended calls last changed at or before this time were cleared. */
  cleared_ms: z.number().default(0),
  /** The last clear, while it can be undone or once it was (an older Callbar ignores it). */
  clearing: Clearing.optional(),
  /** Leg ids of calls no longer kept, so late events for them do not look like new calls. */
  retired_legs: z.array(z.string()).default([]),
  /** Ids of calls cleared or dropped, so an older copy elsewhere does not bring them back. */
  removed_ids: z.array(z.string()).default([]),
});
export type CallLog = z.infer<typeof CallLog>;

export const EMPTY_CALL_LOG: CallLog = {
  calls: [],
  cleared_ms: 0,
  retired_legs: [],
  removed_ids: [],
};

/** `calls.json`, version 1. */
export const CallLogFormat = fileFormat({ version: 1, content: CallLog });

/** True when A and B are exactly the same type (an optional field more or less counts). */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/**
 * The stored call and the contract's call are the same shape, so the call log hands its calls to
 * the window as they are. A change to the contract's Call makes this line fail to compile: then
 * give this file a version 2 (and a migration from 1) or map between the two. (A call's note is
 * kept in call-notes.json, not here: calls-service.ts adds it.)
 */
const sameShape: Same<StoredCall, Omit<Call, 'note'>> = true;
void sameShape;
