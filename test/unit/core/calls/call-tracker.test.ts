/**
 * The call tracker on event sequences shaped as the platform may send them: `{id}` only (all the
 * contract guarantees), the simulator's richer fields, repeats, reordering, garbage, silence.
 * Its clock is driven by the test; the call log is a real file in a temp folder.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DialTarget } from '../../../../src-shared/contract';
import type { AccountOwner } from '../../../../src-main/core/account/account-history';
import {
  CallLogFile,
  MAX_CALL_LOG_BYTES,
  MAX_RECENT_CALLS,
} from '../../../../src-main/core/calls/call-log';
import { identifyParty } from '../../../../src-main/core/calls/call-party';
import { CallTracker, DEFAULT_CALL_LIMITS } from '../../../../src-main/core/calls/call-tracker';
import type { CallDirectory } from '../../../../src-main/core/calls/dial-target';
import { createLogger, silentLogger, type Logger } from '../../../../src-main/core/log/logger';
import { said } from '../../../../src-main/core/text/said';
import { translatorFor } from '../../../../src-main/core/text/translators';

const directory: CallDirectory = {
  lookupByNumber: (number) =>
    number === '+442071234567'
      ? {
          id: 9,
          phonebook: 2,
          phonebook_name: 'Customers',
          display_name: 'Ada Lovelace',
          company: 'Analytical Engines',
          number: '+44 20 7123 4567',
          secondary_number: null,
          speed_dial: null,
        }
      : undefined,
  findBySpeedDial: () => undefined,
};

const target: DialTarget = {
  destination: '+49301234567',
  display: '+49 30 1234567',
  kind: 'external',
  class: 'international',
  country: 'DE',
  e164: '+49301234567',
  description: 'This is a number in Germany.',
};

const ALICE = { tenant_id: 'acme', user_extension: '201', base_url: 'sim' };

function rig(
  options: { dataDir?: string; log?: Logger; owner?: () => AccountOwner | undefined } = {},
) {
  let now = Date.parse('2026-11-24T09:00:00Z');
  const file = options.dataDir ? new CallLogFile(options.dataDir, silentLogger) : undefined;
  const tracker = new CallTracker({
    ...(file ? { file } : {}),
    ownExtension: () => '201',
    owner: options.owner ?? (() => ALICE),
    identify: (number) => identifyParty(number, { region: 'DE', directory }),
    log: options.log ?? silentLogger,
    now: () => now,
  });
  return {
    tracker,
    advance: (ms: number) => (now += ms),
    only: () => {
      const { current, recent } = tracker.view();
      expect(current.length + recent.length).toBe(1);
      return current[0] ?? recent[0]!;
    },
  };
}

/** The events the simulator's rich profile sends for a click-to-dial from 201. */
function richDial(callId = 'call_1', caller = 'leg_a', callee = 'leg_b') {
  const base = { call_id: callId, direction: 'outbound', from: '201', to: '+49301234567' };
  return [
    {
      ...base,
      id: caller,
      event: 'ringing',
      state: 'ringing',
      leg: 'caller',
      party: '201',
      sequence: 1,
    },
    {
      ...base,
      id: caller,
      event: 'answered',
      state: 'answered',
      leg: 'caller',
      party: '201',
      sequence: 2,
    },
    {
      ...base,
      id: callee,
      event: 'ringing',
      state: 'ringing',
      leg: 'callee',
      party: '+49301234567',
      sequence: 3,
    },
    {
      ...base,
      id: callee,
      event: 'answered',
      state: 'answered',
      leg: 'callee',
      party: '+49301234567',
      sequence: 4,
    },
    {
      ...base,
      id: caller,
      event: 'bridged',
      state: 'bridged',
      leg: 'caller',
      party: '201',
      sequence: 5,
    },
    {
      ...base,
      id: callee,
      event: 'bridged',
      state: 'bridged',
      leg: 'callee',
      party: '+49301234567',
      sequence: 6,
    },
    {
      ...base,
      id: callee,
      event: 'hangup',
      state: 'ended',
      leg: 'callee',
      party: '+49301234567',
      sequence: 7,
      hangup_cause: 'normal_clearing',
    },
    {
      ...base,
      id: caller,
      event: 'hangup',
      state: 'ended',
      leg: 'caller',
      party: '201',
      sequence: 8,
      hangup_cause: 'normal_clearing',
    },
  ];
}

describe('CallTracker with {id}-only events', () => {
  it('makes an accepted dial a current call and attaches the leg ids that follow', () => {
    const { tracker, only } = rig();
    tracker.beginOutgoing(target, 'ui', {});
    expect(only()).toMatchObject({ state: 'dialing', direction: 'outgoing', leg_ids: [] });
    tracker.ingest({ id: 'leg_a' });
    tracker.ingest({ id: 'leg_a' });
    tracker.ingest({ id: 'leg_b' });
    const call = only();
    expect(call.state).toBe('in-progress');
    expect(call.leg_ids).toEqual(['leg_a', 'leg_b']);
    // Shown the national way in the user's own country (DE here).
    expect(call.party.display).toBe('030 1234567');
  });

  it('holds events that arrive before the platform answered the dial, then gives them to it', () => {
    const { tracker, only } = rig();
    const release = tracker.expectDial();
    tracker.ingest({ id: 'leg_a' }); // the platform posts before it answers
    expect(tracker.view().current).toEqual([]);
    tracker.beginOutgoing(target, 'ui', { call_leg_id: 'leg_a' });
    release();
    tracker.ingest({ id: 'leg_b' });
    expect(only()).toMatchObject({ direction: 'outgoing', leg_ids: ['leg_a', 'leg_b'] });
    expect(tracker.records()[0]!.events).toEqual([{ id: 'leg_a' }, { id: 'leg_b' }]);
  });

  it('never crashes on shapes it does not know, and ignores events without a usable id', () => {
    const { tracker, only } = rig();
    tracker.beginOutgoing(target, 'ui', {});
    for (const junk of [
      null,
      42,
      'leg_a',
      [],
      [{ id: 'x' }],
      {},
      { id: '' },
      { id: 7 },
      { id: 'y'.repeat(500) },
      { ID: 'leg_z' },
    ]) {
      tracker.ingest(junk);
    }
    expect(only().leg_ids).toEqual([]);
    tracker.ingest({
      id: 'leg_a',
      state: { nested: true },
      sequence: 'three',
      direction: 12,
      party: ['201'],
      call_id: null,
      extra: { deeply: { nested: [1, 2, 3] } },
    });
    expect(only()).toMatchObject({ state: 'in-progress', leg_ids: ['leg_a'] });
  });

  it('keeps the raw events with the call', () => {
    const { tracker } = rig();
    tracker.beginOutgoing(target, 'ui', {});
    tracker.ingest({ id: 'leg_a', vendor_field: 'kept as it came' });
    expect(tracker.records()[0]!.events).toEqual([
      { id: 'leg_a', vendor_field: 'kept as it came' },
    ]);
  });

  it('takes a leg of no dial for a call Callbar did not place', () => {
    const { tracker, only } = rig();
    tracker.ingest({ id: 'leg_x' });
    expect(only()).toMatchObject({
      direction: 'incoming',
      state: 'in-progress',
      party: { display: 'Unknown caller' },
      leg_ids: ['leg_x'],
    });
  });

  it('attaches legs to a dial only for a while after it', () => {
    const { tracker, advance } = rig();
    tracker.beginOutgoing(target, 'ui', {});
    tracker.ingest({ id: 'leg_a' });
    advance(DEFAULT_CALL_LIMITS.attachWindowMs + 1);
    tracker.ingest({ id: 'leg_other' });
    const { current } = tracker.view();
    expect(current.map((call) => call.leg_ids)).toEqual([['leg_other'], ['leg_a']]);
  });

  it('attaches only the first few unknown legs, within seconds of the call’s news', () => {
    const { tracker, advance } = rig();
    const dial = tracker.beginOutgoing(target, 'ui', {});
    tracker.ingest({ id: 'leg_own' }); // the platform rings the user's phone first
    // Seconds after the dial, 20 s after it: unknown legs are not taken to be this call's.
    advance(20_000);
    tracker.ingest({ id: 'leg_late' });
    expect(tracker.current(dial.id)!.call.leg_ids).toEqual(['leg_own']);
    // The user answers 25 s after the dial (news), the destination's leg follows at once.
    advance(5_000);
    tracker.ingest({ id: 'leg_own' });
    tracker.ingest({ id: 'leg_destination' });
    // A forger posting unknown legs meanwhile gets at most the rest of the handful.
    for (let i = 0; i < 40; i++) tracker.ingest({ id: `leg_forged_${i}` });
    const legs = tracker.current(dial.id)!.legs;
    expect(legs.map((leg) => leg.id)).toEqual(['leg_own', 'leg_destination', 'leg_forged_0']);
    expect(legs.length).toBe(DEFAULT_CALL_LIMITS.guessedLegs);
  });

  it('never lets unknown legs push the user’s dial out of the current calls', () => {
    const { tracker, advance } = rig();
    const dial = tracker.beginOutgoing(target, 'ui', {});
    tracker.ingest({ id: 'leg_own' });
    advance(20_000);
    for (let i = 0; i < 600; i++) {
      advance(1000);
      tracker.ingest({ id: `leg_forged_${i}` });
    }
    expect(tracker.current(dial.id)?.call.leg_ids).toEqual(['leg_own']);
    const incoming = tracker.view().current.filter((call) => call.direction === 'incoming');
    // At most a burst of calls plus one per 6 s of flood, and never more than are followed.
    expect(incoming.length).toBeLessThan(DEFAULT_CALL_LIMITS.current);
    const started = tracker.records().filter((record) => record.call.direction === 'incoming');
    expect(started.length).toBeLessThanOrEqual(5 + 600 / 6);
  });

  it('gives up a dial that no event ever confirmed, and a call with no news', () => {
    const { tracker, advance } = rig();
    tracker.beginOutgoing(target, 'ui', {});
    advance(DEFAULT_CALL_LIMITS.unconfirmedMs - 1000);
    tracker.expire();
    expect(tracker.view().current).toHaveLength(1);
    advance(2000);
    tracker.expire();
    expect(tracker.view().recent[0]!.state).toBe('ended');
    expect(tracker.view().recent[0]!.reason).toMatch(/No call events arrived/);

    tracker.beginOutgoing(target, 'ui', {});
    tracker.ingest({ id: 'leg_c' });
    advance(DEFAULT_CALL_LIMITS.silenceMs - 1000);
    tracker.ingest({ id: 'leg_c' }); // news: the clock restarts
    advance(DEFAULT_CALL_LIMITS.silenceMs - 1000);
    tracker.expire();
    expect(tracker.view().current).toHaveLength(1);
    advance(2000);
    tracker.expire();
    expect(tracker.view().current).toHaveLength(0);
    expect(tracker.view().recent[0]!.reason).toMatch(/No news from the platform for 60 minutes/);
  });
});

describe('CallTracker with richer events', () => {
  it('follows calling-you → ringing → connected → ended, with the cause in words', () => {
    const { tracker, only } = rig();
    tracker.beginOutgoing(target, 'tray', { call_id: 'call_1', call_leg_id: 'leg_a' });
    const states: string[] = [];
    for (const event of richDial()) {
      tracker.ingest(event);
      states.push(only().state);
    }
    expect(states).toEqual([
      'calling-you',
      'ringing',
      'ringing',
      'connected',
      'connected',
      'connected',
      'ended',
      'ended',
    ]);
    const call = only();
    expect(call).toMatchObject({ reason: 'The call ended normally.', source: 'tray' });
    expect(call.connected_at).toBeDefined();
    expect(call.ended_at).toBeDefined();
    expect(tracker.view().current).toEqual([]);
  });

  it('ignores repeated deliveries and does not move a leg back on an older one', () => {
    const { tracker, only } = rig();
    tracker.beginOutgoing(target, 'ui', {});
    const [ringing, answered, calleeRinging, calleeAnswered] = richDial();
    tracker.ingest(answered);
    tracker.ingest(ringing); // older, arrives late
    expect(only().state).toBe('ringing'); // own leg answered: the destination is being dialled
    tracker.ingest(calleeAnswered);
    tracker.ingest(calleeRinging); // older
    tracker.ingest(calleeAnswered); // repeated
    tracker.ingest(answered); // repeated
    expect(only().state).toBe('connected');
    expect(tracker.records()[0]!.events).toHaveLength(4);
  });

  it('does not revive an ended call with a late event', () => {
    const { tracker, only } = rig();
    tracker.beginOutgoing(target, 'ui', {});
    const events = richDial();
    tracker.ingest(events[0]);
    tracker.end(only().id, said('errors:callEnd.youHungUp'));
    tracker.ingest(events[2]);
    tracker.ingest(events[4]);
    expect(only()).toMatchObject({ state: 'ended', reason: 'You hung up.' });
  });

  it('does not take a leg whose event names no call into a call whose events name theirs', () => {
    const { tracker } = rig();
    const dial = tracker.beginOutgoing(target, 'ui', { call_id: 'call_1', call_leg_id: 'leg_a' });
    tracker.ingest(richDial()[0]);
    tracker.ingest({ id: 'leg_forged' });
    expect(tracker.current(dial.id)!.call.leg_ids).toEqual(['leg_a']);
  });

  it('keeps two calls apart by their call_id', () => {
    const { tracker } = rig();
    tracker.beginOutgoing(target, 'ui', { call_id: 'call_1' });
    tracker.ingest(richDial('call_1', 'a1', 'b1')[0]);
    tracker.ingest(richDial('call_2', 'a2', 'b2')[0]);
    expect(tracker.view().current.map((call) => call.leg_ids)).toEqual([['a2'], ['a1']]);
  });

  it('identifies an incoming caller through the directory', () => {
    const { tracker, only } = rig();
    tracker.ingest({
      id: 'leg_in',
      call_id: 'call_9',
      event: 'ringing',
      state: 'ringing',
      direction: 'inbound',
      leg: 'callee',
      party: '201',
      from: '+442071234567',
      to: '201',
      sequence: 2,
    });
    expect(only()).toMatchObject({
      direction: 'incoming',
      state: 'ringing',
      party: { name: 'Ada Lovelace', company: 'Analytical Engines', display: '+44 20 7123 4567' },
    });
  });
});

describe('a flood of call events', () => {
  it('takes events at a bounded rate, drops the excess and says so once', () => {
    const lines: string[] = [];
    const { tracker, advance } = rig({ log: createLogger((line) => lines.push(line), 'warn') });
    const dial = tracker.beginOutgoing(target, 'ui', { call_leg_id: 'leg_own' });
    // 3,600 events of the user's own leg within one second.
    for (let i = 0; i < 3600; i++) tracker.ingest({ id: 'leg_own', n: i });
    const taken = tracker.current(dial.id)!.events.length;
    expect(taken).toBeLessThanOrEqual(DEFAULT_CALL_LIMITS.events.burst);
    expect(lines.filter((line) => line.includes('dropped'))).toHaveLength(1);
    // Once the flood stops, events are taken again.
    advance(10_000);
    tracker.ingest({ id: 'leg_own', state: 'hangup' });
    expect(tracker.view().recent[0]).toMatchObject({ id: dial.id, state: 'ended' });
    tracker.close();
    expect(lines.filter((line) => line.includes('dropped'))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(/"count":\d{4}/);
  });

  it('keeps a bounded number of events, legs and bytes per call', () => {
    const { tracker, advance } = rig();
    const dial = tracker.beginOutgoing(target, 'ui', { call_id: 'call_1' });
    for (let i = 0; i < 200; i++) {
      advance(1000);
      tracker.ingest({ id: `leg_${i % 20}`, call_id: 'call_1', pad: 'x'.repeat(1500) });
    }
    advance(1000);
    tracker.ingest({ id: 'leg_0', call_id: 'call_1', state: 'ringing', pad: 'y'.repeat(12_000) });
    const record = tracker.current(dial.id)!;
    expect(record.legs).toHaveLength(DEFAULT_CALL_LIMITS.legs);
    expect(JSON.stringify(record.events).length).toBeLessThanOrEqual(8 * 1024 + 64);
    // A big event is kept as the fields Callbar read from it, with its size.
    expect(record.events.at(-1)).toEqual({
      id: 'leg_0',
      call_id: 'call_1',
      state: 'ringing',
      truncated_bytes: expect.any(Number) as number,
    });
  });
});

describe('the call log in the profile', () => {
  it('persists calls (mode 0600), caps and clears recent ones, and ignores late legs of cleared calls', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-calls-'));
    const { tracker, advance } = rig({ dataDir });
    for (let i = 0; i < MAX_RECENT_CALLS + 5; i++) {
      tracker.beginOutgoing(target, 'ui', { call_leg_id: `leg_${i}` });
      tracker.end(tracker.view().current[0]!.id, said('errors:callEnd.youHungUp'));
      advance(1000);
    }
    await tracker.flushed();
    const file = join(dataDir, 'calls.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = rig({ dataDir }).tracker;
    expect(again.view().recent).toHaveLength(MAX_RECENT_CALLS);
    again.ingest({ id: 'leg_0' }); // a late event for a call no longer kept
    expect(again.view().current).toEqual([]);
    again.clearRecent(0);
    again.settleClearing();
    await again.flushed();
    expect(rig({ dataDir }).tracker.view().recent).toEqual([]);
  });

  it('stays within its byte cap, the oldest ended calls rolling off', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-calls-'));
    const { tracker, advance } = rig({ dataDir });
    for (let i = 0; i < MAX_RECENT_CALLS + 20; i++) {
      // Ids as long as the platform's may be, every event with a sequence (a delivery key).
      const callId = `${'c'.repeat(120)}_${i}`;
      const call = tracker.beginOutgoing(target, 'ui', { call_id: callId });
      for (let n = 0; n < 30; n++) {
        advance(200);
        const id = `${'l'.repeat(120)}_${i}_${n % 8}`;
        tracker.ingest({ id, call_id: callId, sequence: n, pad: 'x'.repeat(1900) });
      }
      tracker.end(call.id, said('errors:callEnd.youHungUp'));
      advance(1000);
    }
    await tracker.flushed();
    const bytes = statSync(join(dataDir, 'calls.json')).size;
    expect(bytes).toBeLessThanOrEqual(MAX_CALL_LOG_BYTES);
    const kept = rig({ dataDir }).tracker.view().recent;
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.length).toBeLessThan(MAX_RECENT_CALLS);
    // The newest are kept.
    expect(kept[0]!.id).toBe(tracker.view().recent[0]!.id);
  });

  it('merges what two processes wrote: a hangup in one is seen by the other', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-calls-'));
    const app = rig({ dataDir });
    app.tracker.beginOutgoing(target, 'ui', {});
    app.tracker.ingest({ id: 'leg_a' });
    await app.tracker.flushed();
    const cli = rig({ dataDir });
    cli.advance(5000);
    const call = cli.tracker.current()!;
    expect(call.call.leg_ids).toEqual(['leg_a']);
    cli.tracker.end(call.call.id, said('errors:callEnd.youHungUp'));
    await cli.tracker.flushed();
    app.advance(60_000);
    app.tracker.ingest({ id: 'leg_a' }); // later news in the app does not undo the hangup
    app.tracker.reload();
    expect(app.tracker.view().recent[0]).toMatchObject({ state: 'ended', reason: 'You hung up.' });
  });

  it('keeps why a call ended as its key: another process shows it in its reader’s language', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-calls-'));
    const app = rig({ dataDir });
    app.tracker.beginOutgoing(target, 'ui', {});
    app.tracker.ingest({ id: 'leg_a' });
    // The platform names a cause Callbar does not know: a sentence with the platform's words.
    app.tracker.ingest({ id: 'leg_a', state: 'ended', hangup_cause: 'NETWORK_OUT_OF_ORDER' });
    await app.tracker.flushed();
    const stored = JSON.parse(readFileSync(join(dataDir, 'calls.json'), 'utf8')) as {
      calls: { call: { reason: string }; reason_said: unknown }[];
    };
    expect(stored.calls[0]!.call.reason).toBe('The call ended (NETWORK OUT OF ORDER).');
    expect(stored.calls[0]!.reason_said).toEqual({
      key: 'errors:callEnd.other',
      values: { cause: 'NETWORK OUT OF ORDER' },
    });
    // Another process (the CLI) reads the file: in German, not the English it was stored with.
    const cli = rig({ dataDir });
    const german = translatorFor('de', 'cli');
    expect(cli.tracker.view(german).recent[0]!.reason).toBe(
      german('errors:callEnd.other', { cause: 'NETWORK OUT OF ORDER' }),
    );
    expect(cli.tracker.view(german).recent[0]!.reason).not.toMatch(/call ended/);
    // Without a language, the English (--json, logs).
    expect(cli.tracker.view().recent[0]!.reason).toBe('The call ended (NETWORK OUT OF ORDER).');
  });

  it('words a reason stored without its key (an older log) when it is a catalog sentence', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-calls-'));
    const app = rig({ dataDir });
    app.tracker.beginOutgoing(target, 'ui', { call_leg_id: 'leg_a' });
    app.tracker.end(app.tracker.current()!.call.id, said('errors:callEnd.youHungUp'));
    const german = translatorFor('de', 'errors');
    expect(app.tracker.view(german).recent[0]!.reason).toBe(german('callEnd.youHungUp'));
    expect(app.tracker.view(german).recent[0]!.reason).not.toBe('You hung up.');
  });

  it('reads a stored reason key only within its bounds (a damaged or hostile log)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-calls-'));
    const app = rig({ dataDir });
    app.tracker.beginOutgoing(target, 'ui', { call_leg_id: 'leg_a' });
    app.tracker.end(app.tracker.current()!.call.id, said('errors:callEnd.youHungUp'));
    await app.tracker.flushed();
    const file = join(dataDir, 'calls.json');
    const log = JSON.parse(readFileSync(file, 'utf8')) as {
      calls: { reason_said: unknown }[];
    };
    let deep: unknown = { key: 'errors:callEnd.other', values: { cause: 'x' } };
    for (let depth = 0; depth < 50; depth += 1) {
      deep = { key: 'errors:callEnd.other', values: { cause: deep } };
    }
    log.calls[0]!.reason_said = deep;
    writeFileSync(file, JSON.stringify(log));
    const reader = rig({ dataDir });
    // Refused as a whole (set aside, like any damaged log): nothing nests without bound.
    expect(reader.tracker.view().recent).toEqual([]);
  });

  it('does not bring back a call another process cleared', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-calls-'));
    const app = rig({ dataDir });
    app.tracker.beginOutgoing(target, 'ui', { call_leg_id: 'leg_a' });
    await app.tracker.flushed();
    const cli = rig({ dataDir });
    cli.advance(1000);
    cli.tracker.end(cli.tracker.current()!.call.id, said('errors:callEnd.youHungUp'));
    cli.tracker.clearRecent(0);
    cli.tracker.settleClearing();
    await cli.tracker.flushed();
    app.tracker.reload();
    expect(app.tracker.view()).toEqual({ current: [], recent: [] });
    app.tracker.ingest({ id: 'leg_a' }); // a late event for the cleared call
    expect(app.tracker.view().current).toEqual([]);
  });

  it('sets a damaged file aside and starts a new one', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-calls-'));
    writeFileSync(join(dataDir, 'calls.json'), '{"version": 1, "calls": [{"broken"');
    const { tracker } = rig({ dataDir });
    expect(tracker.view()).toEqual({ current: [], recent: [] });
    expect(() => readFileSync(join(dataDir, 'calls.json'))).toThrow();
  });
});

describe('whose calls are shown', () => {
  it('shows only the connected account’s calls: not another account’s or platform’s, nor unowned ones', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-owner-'));
    let owner: AccountOwner | undefined = ALICE;
    const { tracker } = rig({ dataDir, owner: () => owner });
    const call = tracker.beginOutgoing(target, 'ui', {});
    expect(tracker.view().current.map((each) => each.id)).toEqual([call.id]);
    expect(tracker.records()[0]!.owner).toEqual(ALICE);

    for (const other of [
      { ...ALICE, user_extension: '202' },
      { ...ALICE, tenant_id: 'other' },
      { ...ALICE, base_url: 'other-sim' },
      undefined,
    ]) {
      owner = other;
      expect(tracker.view()).toEqual({ current: [], recent: [] });
      expect(tracker.current()).toBeUndefined();
    }
    owner = ALICE;
    expect(tracker.current()?.call.id).toBe(call.id);

    // A log from before owners were kept: nobody's, so not shown.
    await tracker.flushed();
    const file = join(dataDir, 'calls.json');
    const log = JSON.parse(readFileSync(file, 'utf8')) as { calls: { owner?: unknown }[] };
    for (const record of log.calls) delete record.owner;
    writeFileSync(file, JSON.stringify(log));
    const reopened = rig({ dataDir, owner: () => ALICE }).tracker;
    expect(reopened.view()).toEqual({ current: [], recent: [] });
  });
});
