/**
 * The machine's clock set back after a Clear of the recent calls (a clock an hour or a day ahead,
 * corrected by NTP or by hand): the calls made afterwards are "older" than the clear by the
 * clock. Those calls vanished from the recent list at the next save (the call log dropped every
 * ended call up to the clear's time), and a call still current when the clock went back stayed
 * on the call bar until the clock caught up. And the calls made after the clock went back were
 * "older" than those made while it was ahead: the recent list showed them below those, and, the
 * list full, dropped them at once (the newest by the clock are kept). The call log is a real file
 * in a temp folder; the tracker's clock is the test's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { DialTarget } from '../../../../src-shared/contract';
import { CallLogFile, MAX_RECENT_CALLS } from '../../../../src-main/core/calls/call-log';
import { identifyParty } from '../../../../src-main/core/calls/call-party';
import { CallTracker } from '../../../../src-main/core/calls/call-tracker';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { said } from '../../../../src-main/core/text/said';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const target: DialTarget = {
  destination: '+49301234567',
  display: '+49 30 1234567',
  kind: 'external',
  class: 'international',
  country: 'DE',
  e164: '+49301234567',
  description: 'This is a number in Germany.',
};

function rig() {
  const clock = { now: Date.parse('2026-11-24T09:00:00Z') };
  const dataDir = mkdtempSync(join(tmpdir(), 'callbar-clock-'));
  const make = () =>
    new CallTracker({
      file: new CallLogFile(dataDir, silentLogger),
      ownExtension: () => '201',
      owner: () => ({ tenant_id: 'acme', user_extension: '201', base_url: 'sim' }),
      identify: (number) =>
        identifyParty(number, {
          region: 'DE',
          directory: { lookupByNumber: () => undefined, findBySpeedDial: () => undefined },
        }),
      log: silentLogger,
      now: () => clock.now,
    });
  return { clock, tracker: make(), again: make };
}

it.each([
  ['an hour', HOUR],
  ['a day', DAY],
])(
  'the clock set back %s after a Clear: the calls made since stay in the recent list',
  async (_, back) => {
    const { clock, tracker, again } = rig();
    const first = tracker.beginOutgoing(target, 'ui', {});
    tracker.end(first.id, said('errors:callEnd.youHungUp'));
    tracker.clearRecent(0);
    tracker.settleClearing(true);
    await tracker.flushed();
    expect(tracker.view().recent).toEqual([]);

    clock.now -= back;
    const dialled = tracker.beginOutgoing(target, 'ui', {});
    clock.now += 60_000;
    tracker.end(dialled.id, said('errors:callEnd.youHungUp'));
    tracker.recordFailed(target, 'ui', said('errors:callEnd.youHungUp'));
    await tracker.flushed();
    expect(tracker.view().recent).toHaveLength(2);
    expect(tracker.view().recent.map((call) => call.id)).toContain(dialled.id);
    // And for the profile's other processes (the file).
    expect(again().view().recent).toHaveLength(2);
  },
);

it('a call current when the clock went back a day is given up after its silence, not a day later', () => {
  const { clock, tracker } = rig();
  tracker.beginOutgoing(target, 'ui', { call_leg_id: 'leg_a' });
  tracker.ingest({ id: 'leg_a' });
  clock.now -= DAY;
  tracker.expire(); // the calls service looks every half minute
  expect(tracker.view().current).toHaveLength(1);
  clock.now += 2 * HOUR; // longer than any silence a call that is not connected may keep
  tracker.expire();
  expect(tracker.view().current).toEqual([]);
});

it('the clock set back an hour during a call: the call bar still follows it (answered)', async () => {
  const { clock, tracker, again } = rig();
  const base = { call_id: 'c1', direction: 'outbound', from: '201', to: '+49301234567' };
  tracker.beginOutgoing(target, 'ui', { call_leg_id: 'leg_a' });
  tracker.ingest({
    ...base,
    id: 'leg_a',
    leg: 'caller',
    party: '201',
    state: 'ringing',
    sequence: 1,
  });
  await tracker.flushed();
  clock.now -= HOUR;
  tracker.ingest({
    ...base,
    id: 'leg_a',
    leg: 'caller',
    party: '201',
    state: 'answered',
    sequence: 2,
  });
  tracker.ingest({ ...base, id: 'leg_b', leg: 'callee', state: 'answered', sequence: 3 });
  await tracker.flushed();
  expect(tracker.view().current.map((call) => call.state)).toEqual(['connected']);
  expect(
    again()
      .view()
      .current.map((call) => call.state),
  ).toEqual(['connected']);
});

it('the clock set back a day with the recent list full: a call made since is kept, first', async () => {
  const { clock, tracker, again } = rig();
  for (let index = 0; index < MAX_RECENT_CALLS; index++) {
    const made = tracker.beginOutgoing(target, 'ui', {});
    clock.now += 60_000;
    tracker.end(made.id, said('errors:callEnd.youHungUp'));
  }
  await tracker.flushed();

  clock.now -= DAY;
  const dialled = tracker.beginOutgoing(target, 'ui', {});
  clock.now += 60_000;
  tracker.end(dialled.id, said('errors:callEnd.youHungUp'));
  const second = tracker.beginOutgoing(target, 'ui', {});
  tracker.end(second.id, said('errors:callEnd.youHungUp'));
  await tracker.flushed();
  for (const view of [tracker.view(), again().view()]) {
    expect(view.recent).toHaveLength(MAX_RECENT_CALLS);
    expect(view.recent.slice(0, 2).map((call) => call.id)).toEqual([second.id, dialled.id]);
    // Shown when they were made, by the clock as it is now.
    expect(Date.parse(view.recent[1]!.started_at)).toBe(clock.now - 60_000);
  }
});
