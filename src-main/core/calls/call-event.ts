/**
 * A call event as the tracker reads it. The contract guarantees only `id` (the call leg id); any
 * other field is read when present and well-formed and ignored otherwise, so an event of an
 * unknown shape is still a leg id and never an error.
 */
import { z } from 'zod';
import { said, type Said } from '../text/said';

/** Leg ids are short platform identifiers; anything longer is not one. */
export const MAX_LEG_ID_LENGTH = 128;

const optionalText = (max: number) => z.string().trim().min(1).max(max).optional().catch(undefined);

export const CallEventFields = z.object({
  id: z.string().trim().min(1).max(MAX_LEG_ID_LENGTH),
  call_id: z
    .union([z.string().trim().min(1).max(MAX_LEG_ID_LENGTH), z.number().int()])
    .transform(String)
    .optional()
    .catch(undefined),
  event: optionalText(40),
  state: optionalText(40),
  direction: optionalText(20),
  /** The role of this leg in the call: caller or callee. */
  leg: optionalText(20),
  /** The extension or number on this leg. */
  party: optionalText(64),
  from: optionalText(64),
  to: optionalText(64),
  sequence: z.number().int().nonnegative().optional().catch(undefined),
  timestamp: optionalText(64),
  hangup_cause: optionalText(64),
});
export type CallEventFields = z.infer<typeof CallEventFields>;

/** A leg's state in words Callbar understands; undefined when the event does not say. */
export type LegState = 'ringing' | 'answered' | 'bridged' | 'ended';

const LEG_STATE_WORDS: Record<string, LegState> = {
  ringing: 'ringing',
  alerting: 'ringing',
  early: 'ringing',
  progress: 'ringing',
  answered: 'answered',
  answer: 'answered',
  up: 'answered',
  active: 'answered',
  bridged: 'bridged',
  bridge: 'bridged',
  connected: 'bridged',
  ended: 'ended',
  hangup: 'ended',
  hungup: 'ended',
  completed: 'ended',
  terminated: 'ended',
  disconnected: 'ended',
  released: 'ended',
};

/**
 * The leg state an event names, by its own words only: a word every object has ("constructor",
 * "toString") names none (it was read as one, a function, and the call log could not be saved).
 */
export function legStateOf(event: CallEventFields): LegState | undefined {
  for (const word of [event.state, event.event]) {
    const key = word?.toLowerCase();
    if (key !== undefined && Object.hasOwn(LEG_STATE_WORDS, key)) return LEG_STATE_WORDS[key];
  }
  return undefined;
}

/** inbound/outbound as the platform sees it from the user's side, when it says. */
export function directionOf(event: CallEventFields): 'incoming' | 'outgoing' | undefined {
  const word = event.direction?.toLowerCase();
  if (word === 'inbound' || word === 'incoming' || word === 'in') return 'incoming';
  if (word === 'outbound' || word === 'outgoing' || word === 'out') return 'outgoing';
  return undefined;
}

/** The hangup causes Callbar words itself, by their key in `errors:callEnd`. */
const CAUSES: Record<string, string> = {
  normal_clearing: 'normal',
  originator_cancel: 'cancelled',
  call_rejected: 'declined',
  user_busy: 'busy',
  no_answer: 'noAnswer',
  no_user_response: 'noAnswer',
};

/**
 * Why a leg ended, said by key (worded where the call is shown, in the reader's language); a
 * cause Callbar does not know is named as the platform gave it.
 */
export function describeHangupCause(cause: string | undefined): Said | undefined {
  if (!cause) return undefined;
  const known = Object.hasOwn(CAUSES, cause.toLowerCase())
    ? CAUSES[cause.toLowerCase()]
    : undefined;
  return known
    ? said(`errors:callEnd.${known}`)
    : said('errors:callEnd.other', { cause: cause.replace(/_/g, ' ') });
}

/**
 * What identifies one delivery, so a repeated one is recognised; undefined when the event carries
 * nothing but ids (then a repeat is indistinguishable from news and is harmless anyway).
 */
export function deliveryKey(event: CallEventFields): string | undefined {
  if (event.sequence !== undefined) return `${event.call_id ?? ''}#${event.sequence}#${event.id}`;
  if (event.timestamp && (event.event || event.state)) {
    return `${event.id}|${event.event ?? ''}|${event.state ?? ''}|${event.timestamp}`;
  }
  return undefined;
}
