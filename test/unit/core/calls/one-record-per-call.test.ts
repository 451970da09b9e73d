/**
 * One call, one record, however many processes of the profile see it (issue 41, point 7): records
 * sharing a leg id are one call when the call log merges them (the dial's record keeps its id,
 * with the legs and the later end of both); an event of a leg this process does not know reads
 * the log again first; and while another process's dial may not be in the log yet, such events
 * wait for it instead of starting "a call to you". (The built CLI beside a running core:
 * test/integration/cli/one-call-record.test.ts.)
 */
import { said } from '../../../../src-main/core/text/said';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallLogFile } from '../../../../src-main/core/calls/call-log';
import { identifyParty } from '../../../../src-main/core/calls/call-party';
import { CallTracker } from '../../../../src-main/core/calls/call-tracker';
import { NO_DIRECTORY } from '../../../../src-main/core/calls/dial-target';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { ALICE, berlinTarget as target } from '../../../support/calls-fixtures';
import { until } from '../../../support/until';

function tracker(dataDir: string, dialElsewhere?: () => false | Promise<boolean>) {
  return new CallTracker({
    file: new CallLogFile(dataDir, silentLogger),
    ownExtension: () => '201',
    owner: () => ALICE,
    identify: (number) => identifyParty(number, { region: 'DE', directory: NO_DIRECTORY }),
    log: silentLogger,
    ...(dialElsewhere ? { dialElsewhere } : {}),
  });
}

describe('one record per call', () => {
  it('merges two processes’ records of one leg into the dial’s, ended as the later said', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-one-record-'));
    const window = tracker(dataDir);
    // The window hears the leg before the CLI's dial is in the log: a call of its own, for now.
    window.ingest({ id: 'leg_x', call_id: 'c1', direction: 'inbound', from: '+49301234567' });
    await window.flushed();
    const cli = tracker(dataDir);
    const dial = cli.beginOutgoing(target, 'cli', { call_id: 'c1', call_leg_id: 'leg_x' });
    await cli.flushed();
    cli.end(dial.id, said('errors:callEnd.youHungUp'));
    await cli.flushed();
    window.reload();
    const { current, recent } = window.view();
    expect(current).toEqual([]);
    expect(recent).toHaveLength(1);
    expect(recent[0]).toMatchObject({
      id: dial.id,
      source: 'cli',
      direction: 'outgoing',
      state: 'ended',
      reason: 'You hung up.',
      leg_ids: ['leg_x'],
    });
    cli.reload();
    expect(cli.view().recent.map((call) => call.id)).toEqual([dial.id]);
  });

  it('reads the log again for a leg it does not know, and attaches it to the CLI’s dial', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-one-record-'));
    const window = tracker(dataDir);
    const cli = tracker(dataDir);
    const dial = cli.beginOutgoing(target, 'cli', {});
    await cli.flushed();
    window.ingest({ id: 'leg_y' }); // {id} only: all the contract guarantees
    expect(window.view().current).toMatchObject([{ id: dial.id, leg_ids: ['leg_y'] }]);
  });

  it('holds a leg while another process’s dial is not in the log yet, then attaches it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-one-record-'));
    let dialling = true;
    const window = tracker(dataDir, () => Promise.resolve(dialling));
    window.ingest({ id: 'leg_z' });
    window.ingest({ id: 'leg_z', state: 'ringing' });
    expect(window.view().current).toEqual([]);
    const cli = tracker(dataDir);
    const dial = cli.beginOutgoing(target, 'cli', {});
    await cli.flushed();
    const seen = await until('the held leg attached', () => {
      const [call] = window.view().current;
      return call?.leg_ids.length ? call : undefined;
    });
    expect(seen).toMatchObject({ id: dial.id, leg_ids: ['leg_z'] });
    expect(window.view().current).toHaveLength(1);

    // Nobody else dialling: a leg nobody knows is someone calling, at once.
    dialling = false;
    const alone = tracker(mkdtempSync(join(tmpdir(), 'callbar-one-record-')), () => false);
    alone.ingest({ id: 'leg_in', direction: 'inbound', from: '+49301234567' });
    expect(alone.view().current).toMatchObject([{ direction: 'incoming' }]);
  });
});
