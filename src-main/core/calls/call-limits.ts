/**
 * The bounds of the call tracker (call-tracker.ts): whoever can post to the receiver can send
 * anything, so calls followed, legs per call, the events taken and the calls a leg of no known
 * call may start are bounded, and calls with no news are given up. The attribution rule's two
 * bounds (leg-attribution.ts) are here too.
 */
import type { Rate } from './token-bucket';

export interface CallLimits {
  /**
   * Calls followed at once; beyond it the oldest is given up, calls Callbar did not place
   * before the user's dials.
   */
  current: number;
  /**
   * The attribution rule for a leg id no call knows (all `{id}`-only events give): it is taken
   * to be a leg of the current call with the latest news (the platform accepting the dial, or an
   * event of one of its legs), if that news is at most this old...
   */
  attachWindowMs: number;
  /** ...and that has fewer legs attached this way than this; otherwise it starts a new call. */
  guessedLegs: number;
  /** Legs one call keeps, however they were attributed; events of further legs are dropped. */
  legs: number;
  /**
   * Events of the calls followed taken; beyond it they are dropped (a flood), and said once per
   * interval. (Events of unknown legs are bounded by the rule above and by newCalls.)
   */
  events: Rate;
  /** Calls that a leg of no known call may start (someone calls the user); beyond it dropped. */
  newCalls: Rate;
  /** A dial no event ever confirmed is given up after this long. */
  unconfirmedMs: number;
  /** A call known to be connected is given up after this long without news. */
  connectedSilenceMs: number;
  /** Any other call is given up after this long without news. */
  silenceMs: number;
}

export const DEFAULT_CALL_LIMITS: CallLimits = {
  current: 20,
  // A click-to-dial rings the user's own phone, then, once they answer, the destination (contract
  // 4.6): two legs, the second within a second of the news that the first was answered. One more
  // for a PBX that hands the destination to another leg (forwarding, voicemail).
  attachWindowMs: 15_000,
  guessedLegs: 3,
  legs: 8,
  // A call makes about eight events over its life; a user rarely has more than a few at once.
  events: { burst: 50, perSecond: 10 },
  newCalls: { burst: 5, perSecond: 1 / 6 },
  unconfirmedMs: 2 * 60_000,
  connectedSilenceMs: 4 * 60 * 60_000,
  silenceMs: 60 * 60_000,
};
