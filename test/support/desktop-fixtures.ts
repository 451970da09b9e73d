import type { Call, CallsSnapshot } from '../../src-shared/contract';

let next = 0;

/** A call as the tracker reports it; fields override the defaults. */
export function call(fields: Partial<Call> & Pick<Call, 'state'>): Call {
  next += 1;
  return {
    id: `call-${next}`,
    direction: 'outgoing',
    party: { number: '+4930123456', display: '+49 30 123456' },
    started_at: '2026-11-24T09:00:00Z',
    leg_ids: [],
    ...fields,
  };
}

export function snapshot(fields: Partial<CallsSnapshot> = {}): CallsSnapshot {
  return { current: [], recent: [], pending: null, ...fields };
}
