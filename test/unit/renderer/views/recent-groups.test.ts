import { describe, expect, it } from 'vitest';
import type { Call } from '../../../../src-shared/contract';
import { groupRecentCalls, talkTime } from '../../../../src-renderer/src/views/recent-groups';

let next = 0;
function call(party: Partial<Call['party']> & { number: string }, times: Partial<Call> = {}): Call {
  next += 1;
  return {
    id: `call-${next}`,
    direction: 'outgoing',
    state: 'ended',
    party: { display: party.number, ...party },
    started_at: '2026-03-05T14:00:00.000Z',
    leg_ids: [],
    ...times,
  };
}

describe('groupRecentCalls: one line per person or number', () => {
  it('counts the calls with one contact or number, newest first, in newest-call order', () => {
    const ada = { number: '+4930111', name: 'Ada', contact_id: 7 };
    const recent = [
      call(ada),
      call({ number: '+4930222' }),
      // Ada on her other number is still Ada.
      call({ ...ada, number: '+4930999' }),
      call({ number: '+4930222' }),
      call(ada),
    ];
    const groups = groupRecentCalls(recent);
    expect(groups.map((group) => [group.last.id, group.count])).toEqual([
      [recent[0]!.id, 3],
      [recent[1]!.id, 2],
    ]);
  });

  it('keeps parties without a number apart by what is shown: two SIP addresses are two people', () => {
    const recent = [
      call({ number: '', display: 'sip:alice@pbx.example.com' }),
      call({ number: '', display: 'Number withheld' }),
      call({ number: '', display: 'sip:bob@pbx.example.com' }),
      call({ number: '', display: 'Number withheld' }),
    ];
    expect(groupRecentCalls(recent).map((group) => [group.last.id, group.count])).toEqual([
      [recent[0]!.id, 1],
      [recent[1]!.id, 2],
      [recent[2]!.id, 1],
    ]);
  });

  it('the talk time runs from connected to ended; none for a call never connected', () => {
    const talked = call(
      { number: '+1' },
      { connected_at: '2026-03-05T14:00:05.000Z', ended_at: '2026-03-05T14:01:29.000Z' },
    );
    expect(talkTime(talked)).toBe(84_000);
    expect(talkTime(call({ number: '+1' }, { ended_at: '2026-03-05T14:00:09.000Z' }))).toBe(
      undefined,
    );
  });
});
