/**
 * A new call record, as the tracker starts one (a dial the platform accepted or refused, a leg
 * of no known call), owned by the account connected then, and the legs it gains.
 */
import { randomUUID } from 'node:crypto';
import type { Call } from '../../../src-shared/contract';
import type { AccountOwner } from '../account/account-history';
import type { CallRecord, LegRecord } from './call-log-format';

/** A call started `now` with Callbar's own id, no legs and no events yet. */
export function newCallRecord(
  now: number,
  fields: Pick<Call, 'direction' | 'state' | 'party'> & Partial<Call>,
  owner: AccountOwner | undefined,
): CallRecord {
  return {
    ...(owner ? { owner } : {}),
    call: {
      id: randomUUID(),
      started_at: new Date(now).toISOString(),
      leg_ids: [],
      ...fields,
    },
    legs: [],
    started_ms: now,
    updated_ms: now,
    news_ms: now,
    delivery_keys: [],
    events: [],
  };
}

/** Adds a leg to the call (its record and the call's leg ids); returns it to fill in. */
export function addLeg(record: CallRecord, id: string): LegRecord {
  const leg: LegRecord = { id };
  record.legs.push(leg);
  record.call.leg_ids = [...record.call.leg_ids, id];
  return leg;
}
