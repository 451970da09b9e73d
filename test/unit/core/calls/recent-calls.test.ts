/**
 * Clear with Undo (issue 41, point 8): Clear hides the recent calls at once and keeps them, and
 * the notes on them, in the profile until its undo time is over; another process (a window
 * started again after a crash, the CLI) sees the same clear and can undo it; once the time is over
 * the calls and their notes are gone for good, and a late event brings none of them back. The
 * calls' numbers are shown in the region of the moment.
 */
import { said } from '../../../../src-main/core/text/said';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallLogFile } from '../../../../src-main/core/calls/call-log';
import { profileCallNotes } from '../../../../src-main/core/calls/call-notes';
import { identifyParty } from '../../../../src-main/core/calls/call-party';
import { CallTracker } from '../../../../src-main/core/calls/call-tracker';
import { NO_DIRECTORY } from '../../../../src-main/core/calls/dial-target';
import { CLEAR_UNDO_MS, RecentCalls } from '../../../../src-main/core/calls/recent-calls';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { translatorFor } from '../../../../src-main/core/text/translators';
import { ALICE, berlinTarget as target } from '../../../support/calls-fixtures';

let now = Date.parse('2026-11-24T09:00:00Z');
let region: 'DE' | 'GB' = 'DE';

/** One process of the profile in `dataDir`: its tracker, notes and recent calls. */
function process(dataDir: string) {
  const tracker = new CallTracker({
    file: new CallLogFile(dataDir, silentLogger),
    ownExtension: () => '201',
    owner: () => ALICE,
    identify: (number) => identifyParty(number, { region, directory: NO_DIRECTORY }),
    log: silentLogger,
    now: () => now,
  });
  const notes = profileCallNotes(dataDir, silentLogger);
  const recent = new RecentCalls({
    tracker,
    notes,
    settings: () => ({ region }),
    log: silentLogger,
  });
  return { tracker, notes, recent };
}

describe('the recent calls', () => {
  it('are cleared undoably: hidden at once, kept with their notes until the time is over', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-recent-'));
    const window = process(dataDir);
    const call = window.tracker.beginOutgoing(target, 'ui', { call_leg_id: 'leg_a' });
    window.tracker.end(call.id, said('errors:callEnd.youHungUp'));
    await window.notes.set(call.id, 'call back on Tuesday');
    await window.tracker.flushed();
    expect(window.recent.view().recent[0]).toMatchObject({ note: 'call back on Tuesday' });

    await window.recent.clear();
    await window.tracker.flushed();
    expect(window.recent.view()).toMatchObject({
      recent: [],
      cleared: { count: 1, undo_until: new Date(now + CLEAR_UNDO_MS).toISOString() },
    });
    // Nothing is lost yet: the call and the note are in the profile.
    expect(readFileSync(join(dataDir, 'calls.json'), 'utf8')).toContain(call.id);
    expect(readFileSync(join(dataDir, 'call-notes.json'), 'utf8')).toContain('Tuesday');
    // A late event of the cleared call does not bring it back.
    window.tracker.ingest({ id: 'leg_a', state: 'hangup' });
    expect(window.recent.view().recent).toEqual([]);

    // The window crashed: a new process of the profile sees the same clear, and undoes it.
    now += 3000;
    const again = process(dataDir);
    await again.notes.load();
    expect(again.recent.view().cleared?.count).toBe(1);
    again.recent.undo();
    await again.tracker.flushed();
    expect(again.recent.view().recent[0]).toMatchObject({
      id: call.id,
      note: 'call back on Tuesday',
    });
    expect(again.recent.view().cleared).toBeUndefined();
    window.tracker.reload();
    expect(window.recent.view().recent.map((each) => each.id)).toEqual([call.id]);
  });

  it('are gone for good once the undo time is over, notes too; then Undo says so', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-recent-'));
    const window = process(dataDir);
    const call = window.tracker.beginOutgoing(target, 'ui', {});
    window.tracker.end(call.id, said('errors:callEnd.youHungUp'));
    await window.notes.set(call.id, 'gone after the undo time');
    await window.recent.clear();
    now += CLEAR_UNDO_MS - 1;
    await window.recent.settle();
    expect(readFileSync(join(dataDir, 'call-notes.json'), 'utf8')).toContain('gone after');
    now += 1;
    expect(() => window.recent.undo()).toThrow(/no clear to undo/);
    await window.recent.settle();
    await window.tracker.flushed();
    expect(window.recent.view()).toEqual({ current: [], recent: [] });
    const log = JSON.parse(readFileSync(join(dataDir, 'calls.json'), 'utf8')) as {
      calls: unknown[];
      removed_ids: string[];
    };
    // Gone, and remembered as removed, so no other process's copy brings it back.
    expect(log.calls).toEqual([]);
    expect(log.removed_ids).toContain(call.id);
    expect(JSON.parse(readFileSync(join(dataDir, 'call-notes.json'), 'utf8'))).toMatchObject({
      notes: [],
    });
    window.recent.close();
  });

  it('show their numbers in the region of the moment', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-recent-'));
    const window = process(dataDir);
    const call = window.tracker.beginOutgoing(target, 'ui', {});
    window.tracker.end(call.id, said('errors:callEnd.youHungUp'));
    region = 'DE';
    expect(window.recent.view().recent[0]!.party.display).toBe('030 1234567');
    region = 'GB';
    expect(window.recent.view().recent[0]!.party.display).toBe('+49 30 1234567');
    region = 'DE';
  });

  it('show a caller’s written extension in the window’s language; the number alone as shown', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-recent-'));
    const window = process(dataDir);
    window.tracker.ingest({ id: 'leg-x', direction: 'inbound', from: '+49 30 7654321 ext. 12' });
    window.tracker.ingest({ id: 'leg-x', direction: 'inbound', state: 'hangup' });
    await window.tracker.flushed();
    const party = () => window.recent.view(translatorFor('de', 'errors')).recent[0]!.party;
    expect(party()).toMatchObject({
      number: '+49307654321',
      display: '030 7654321 Nebenstelle 12',
      number_shown: '030 7654321',
      extension: '12',
    });
    expect(window.recent.view().recent[0]!.party.display).toBe('030 7654321 ext. 12');
    // Another process reads it from the call log the same way.
    expect(process(dataDir).recent.view().recent[0]!.party.display).toBe('030 7654321 ext. 12');
    region = 'GB';
    expect(party()).toMatchObject({
      display: '+49 30 7654321 Nebenstelle 12',
      number_shown: '+49 30 7654321',
    });
    region = 'DE';
  });
});
