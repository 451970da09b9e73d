/**
 * Recent calls as the window lists them: one entry per person or number (the newest call first,
 * in the order of each one's newest call), with how many calls there were and the newest call's
 * time and talk time, so the same contact called seven times takes one line, not seven.
 */
import type { Call } from '../../../src-shared/contract';

/** The calls with one person or number, newest first. */
export interface RecentGroup {
  /** The newest call of the group. */
  last: Call;
  count: number;
}

/**
 * Who a call was with: the directory's contact when known, else the number, else what is shown
 * for a party without one (two SIP addresses are two people; withheld callers share one line).
 */
function partyKey(call: Call): string {
  const { contact_id, number, display } = call.party;
  if (contact_id !== undefined) return `contact:${contact_id}`;
  return number ? `number:${number}` : `shown:${display}`;
}

/** Groups `recent` (newest first) by person or number, keeping newest-first order. */
export function groupRecentCalls(recent: readonly Call[]): RecentGroup[] {
  const groups = new Map<string, RecentGroup>();
  for (const call of recent) {
    const key = partyKey(call);
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { last: call, count: 1 });
  }
  return [...groups.values()];
}

/** How long the call talked (connected to ended), in ms; undefined if it never connected. */
export function talkTime(call: Call): number | undefined {
  if (!call.connected_at || !call.ended_at) return undefined;
  const ms = Date.parse(call.ended_at) - Date.parse(call.connected_at);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
