/**
 * The events kept with a call: the newest, raw as they came, within a byte budget (a big one is
 * kept as the fields Callbar read from it, with its size), and the delivery keys that tell a
 * repeated delivery from a new event.
 */
import { deliveryKey, type CallEventFields } from './call-event';
import type { CallRecord } from './call-log-format';

const MAX_EVENTS_KEPT = 30;
/** Raw events kept per call, as JSON; the oldest roll off first. */
const MAX_CALL_EVENT_BYTES = 8 * 1024;
/** A bigger event is kept as the fields Callbar read from it, with its size. */
const MAX_EVENT_BYTES = 2 * 1024;
const MAX_DELIVERY_KEYS = 64;

/**
 * Remembers the event's delivery on its call; false when the call has had this delivery before
 * (a repeat, to be ignored). Events without a delivery key are never repeats.
 */
export function newDelivery(record: CallRecord, event: CallEventFields): boolean {
  const key = deliveryKey(event);
  if (key === undefined) return true;
  if (record.delivery_keys.includes(key)) return false;
  record.delivery_keys = [...record.delivery_keys, key].slice(-MAX_DELIVERY_KEYS);
  return true;
}

/** The call's events with this one added, the oldest rolling off beyond the budget. */
export function withEvent(events: unknown[], raw: unknown, event: CallEventFields): unknown[] {
  return newestWithinBytes([...events, storable(raw, event)]);
}

/** An event as kept with its call: as it came, or, when big, the fields read from it and its size. */
function storable(raw: unknown, event: CallEventFields): unknown {
  const bytes = jsonBytes(raw);
  return bytes <= MAX_EVENT_BYTES ? raw : { ...event, truncated_bytes: bytes };
}

/** The newest events, at most MAX_EVENTS_KEPT and MAX_CALL_EVENT_BYTES of JSON. */
function newestWithinBytes(events: unknown[]): unknown[] {
  const kept = events.slice(-MAX_EVENTS_KEPT);
  let total = kept.reduce<number>((sum, event) => sum + jsonBytes(event), 0);
  while (kept.length > 1 && total > MAX_CALL_EVENT_BYTES) total -= jsonBytes(kept.shift());
  return kept;
}

/** The JSON length of a value (one that cannot be written as JSON counts as too big). */
function jsonBytes(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
