/**
 * The order Hang up tries a call's legs in. The user's own leg is not always known (the contract
 * guarantees events only their leg id), and a leg of another party is refused with 403, so the
 * leg most likely the user's is tried first.
 */
import type { CallRecord, LegRecord } from './call-log-format';

/**
 * The order Hang up tries a call's legs in, by what the platform said rather than by the order
 * its events arrived in (a platform may post them out of order): the user's own first (the dial's
 * answer named it, an event gave the user's extension as its party, or the leg's role does: the
 * caller of a dial, the callee of a call to the user); then the legs in the order the platform
 * made them (the sequence of each leg's first event, where events carry one; else the order they
 * arrived in), starting with the one most likely theirs: for a dial the first (the platform
 * rings the user's phone first, contract 4.6), for a call to them the second (the caller's leg
 * comes first); legs known to be another party's last.
 */
export function legsToTry(record: CallRecord): string[] {
  const outgoing = record.call.direction === 'outgoing';
  const made = record.legs
    .map((leg, arrival) => ({ leg, arrival }))
    .sort(
      (a, b) =>
        (a.leg.first_sequence ?? Number.MAX_SAFE_INTEGER) -
          (b.leg.first_sequence ?? Number.MAX_SAFE_INTEGER) || a.arrival - b.arrival,
    )
    .map(({ leg }) => leg);
  const theirs = outgoing ? 0 : 1;
  const likeliest = [...made.slice(theirs), ...made.slice(0, theirs)];
  const isOwn = (leg: LegRecord) =>
    leg.own ?? (leg.role === undefined ? undefined : (leg.role === 'caller') === outgoing);
  return [
    ...likeliest.filter((leg) => isOwn(leg) === true),
    ...likeliest.filter((leg) => isOwn(leg) === undefined),
    ...likeliest.filter((leg) => isOwn(leg) === false),
  ].map((leg) => leg.id);
}
