/**
 * Calls: what a number resolves to, calls in progress and recent, a dial waiting for the user's yes.
 * Part of the IPC contract (src-shared/contract/index.ts says what it is).
 */
import { z } from 'zod';
import { isoTime } from './common';
import { DirectoryContact, SearchResult } from './directory';

export const CallSource = z.enum(['ui', 'tray', 'tel-link', 'shortcut', 'cli']);
export type CallSource = z.infer<typeof CallSource>;

/**
 * What a destination is, judged before dialling (core/calls/destination-class.ts): an extension
 * on the phone system, a number in the user's region or another country, a number that costs
 * more (premium-rate, shared-cost) or nothing (toll-free), an emergency number, a `*`/`#` service
 * code, or an outside number whose kind libphonenumber cannot tell (unknown).
 */
export const DestinationClass = z.enum([
  'extension',
  'national',
  'international',
  'premium-rate',
  'shared-cost',
  'toll-free',
  'emergency',
  'service-code',
  'unknown',
]);
export type DestinationClass = z.infer<typeof DestinationClass>;

/** What a typed, pasted or clicked number resolves to. */
export const DialTarget = z.object({
  /** What is sent to the platform: E.164 for external numbers, digits for extensions. */
  destination: z.string(),
  /** How to show it to a person ("+49 30 1234567", "Extension 201"). */
  display: z.string(),
  kind: z.enum(['external', 'extension', 'speed-dial']),
  /**
   * A speed dial's number, shown as any number is ("030 1234567"; "Extension 8104" where the
   * contact's number does not read as one): what it dials, beside `display`'s name and code.
   */
  dials_shown: z.string().optional(),
  /** What the destination is (of the number a speed dial stands for, for a speed dial). */
  class: DestinationClass,
  /** The country the number belongs to (ISO 3166-1 alpha-2): outside and emergency numbers. */
  country: z.string().optional(),
  /** The number in international form (E.164), for outside numbers. */
  e164: z.string().optional(),
  /**
   * The extension written after an outside number ("ext. 12", ";ext=12", "x12"): shown, but not
   * dialled (click-to-dial takes a number or an extension, not both).
   */
  extension: z.string().optional(),
  /**
   * The keys written after a pause ("…,,81234567890#", ";postd="), a conference's PIN: shown,
   * with a note to press them once the call is answered; never dialled (click-to-dial sends none).
   */
  post_dial: z.string().optional(),
  /** The class in plain words: "This is a premium-rate number in Germany." */
  description: z.string(),
  /**
   * Something the person must know about what was typed, e.g. that a speed dial with the same
   * digits exists but the emergency number wins.
   */
  note: z.string().optional(),
  /** The directory contact the number belongs to, when known. */
  contact: DirectoryContact.optional(),
});
export type DialTarget = z.infer<typeof DialTarget>;

/**
 * A search's answer: the directory's hits and, when the query reads as a number (core's one
 * reader, as `callbar dial` and a link read it), what Enter would dial (the "Dial +49 30 …" row), in one round trip.
 */
export const SearchAnswer = SearchResult.extend({
  dial: DialTarget.optional(),
  /**
   * How many hits come before the dial row (absent: none, it is first). An extension comes after
   * the contacts whose number or speed dial the digits are or start, before those that merely
   * hold them (core/numbers/numbering.ts says when digits are an extension at all).
   */
  dial_at: z.number().int().nonnegative().optional(),
});
export type SearchAnswer = z.infer<typeof SearchAnswer>;

/** The other side of a call, identified through the directory when possible. */
export const CallParty = z.object({
  number: z.string(),
  display: z.string(),
  /**
   * The number as core's numbers module shows it ("(202) 555-0177" at home, an extension's
   * digits), without words: what a new contact's form starts from. Absent without a number.
   */
  number_shown: z.string().optional(),
  /**
   * The extension the caller id wrote after the number ("ext. 12": its digits), as core's reader
   * read it: shown in `display`, never dialled (`number` is without it).
   */
  extension: z.string().optional(),
  name: z.string().optional(),
  company: z.string().optional(),
  contact_id: z.number().int().optional(),
});
export type CallParty = z.infer<typeof CallParty>;

/**
 * dialing: the platform was asked; calling-you: your own phone rings; ringing: the other party's
 * phone rings; connected; in-progress: events arrive but do not say more (the contract guarantees
 * only leg ids); ended; failed: the platform refused the dial.
 */
export const CallState = z.enum([
  'dialing',
  'calling-you',
  'ringing',
  'connected',
  'in-progress',
  'ended',
  'failed',
]);
export type CallState = z.infer<typeof CallState>;

export const Call = z.object({
  /** Callbar's own id for the call (leg ids come and go). */
  id: z.string(),
  direction: z.enum(['outgoing', 'incoming']),
  state: CallState,
  party: CallParty,
  source: CallSource.optional(),
  started_at: isoTime,
  connected_at: isoTime.optional(),
  ended_at: isoTime.optional(),
  /** Call leg ids seen for this call, oldest first. */
  leg_ids: z.array(z.string()),
  /** Why it ended or failed, in words, when known. */
  reason: z.string().optional(),
  /**
   * Keys to press once the call is answered (a conference's PIN written after a pause in what was
   * dialled: DialTarget.post_dial), shown while the call lasts; click-to-dial cannot send them.
   */
  keys: z.string().optional(),
  /** The user's note on the call (kept on this computer only). */
  note: z.string().optional(),
});
export type Call = z.infer<typeof Call>;

/** The longest note on a call (a line or two: who, what about, what next). */
export const CALL_NOTE_CHARS = 500;

/** A dial that waits for the user's yes (a tel: link, unless links dial without asking). */
export const PendingDial = z.object({
  id: z.string(),
  target: DialTarget,
  source: CallSource,
  /** The link as it arrived, shortened for display. */
  link: z.string().optional(),
  /**
   * Why this link asks even when links dial without asking (an emergency number, a premium-rate
   * number, another country…), in plain words; absent when it asks only because of the setting.
   */
  reason: z.string().optional(),
});
export type PendingDial = z.infer<typeof PendingDial>;

export const CallsSnapshot = z.object({
  /** Calls not yet ended, newest first (usually zero or one). */
  current: z.array(Call),
  /** Ended calls, newest first, capped and persisted in the profile. */
  recent: z.array(Call),
  /** A dial waiting for confirmation, if any. */
  pending: PendingDial.nullable(),
  /**
   * The recent calls just cleared, while Undo can bring them back (core keeps them until then):
   * how many, and until when.
   */
  cleared: z.object({ count: z.number().int().nonnegative(), undo_until: isoTime }).optional(),
});
export type CallsSnapshot = z.infer<typeof CallsSnapshot>;

export const DialOutcome = z.discriminatedUnion('status', [
  z.object({ status: z.literal('dialing'), call: Call, target: DialTarget }),
  z.object({ status: z.literal('needs-confirmation'), pending: PendingDial }),
]);
export type DialOutcome = z.infer<typeof DialOutcome>;

export const dialInput = z.string().min(1).max(512);
