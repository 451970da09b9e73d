/**
 * Who is calling, in the tracker: a caller the directory does not know yet is named once it does
 * (`reidentify`, after "Add to contacts" or a sync), and a call whose first event did not name
 * the caller takes the number from a later one. A call without a number stays "Unknown caller".
 */
import { describe, expect, it } from 'vitest';
import type { DirectoryContact } from '../../../../src-shared/contract';
import { identifyParty } from '../../../../src-main/core/calls/call-party';
import { CallTracker } from '../../../../src-main/core/calls/call-tracker';
import { silentLogger } from '../../../../src-main/core/log/logger';

const OWNER = { tenant_id: 'acme', user_extension: '201', base_url: 'sim' };

function rig() {
  const contacts = new Map<string, DirectoryContact>();
  const directory = {
    lookupByNumber: (number: string) => contacts.get(number),
    findBySpeedDial: () => undefined,
  };
  const tracker = new CallTracker({
    ownExtension: () => '201',
    owner: () => OWNER,
    identify: (number) => identifyParty(number, { region: 'US', directory }),
    log: silentLogger,
  });
  const add = (number: string, display_name: string, company: string) =>
    contacts.set(number, {
      id: contacts.size + 1,
      phonebook: 1,
      phonebook_name: 'Callers',
      display_name,
      company,
      number,
      secondary_number: null,
      speed_dial: null,
    });
  return { tracker, add };
}

describe('caller identity', () => {
  it('names an unknown caller once the directory knows the number', () => {
    const { tracker, add } = rig();
    tracker.ingest({ id: 'leg-1', call_id: 'c1', direction: 'inbound', from: '+12025550188' });
    expect(tracker.view().current[0]!.party).toEqual({
      number: '+12025550188',
      display: '(202) 555-0188',
    });
    let changes = 0;
    tracker.onChange(() => changes++);
    tracker.reidentify();
    expect(changes).toBe(0);
    add('+12025550188', 'Zed <b>', 'Acme');
    tracker.reidentify();
    expect(changes).toBe(1);
    expect(tracker.view().current[0]!.party).toMatchObject({
      number: '+12025550188',
      name: 'Zed <b>',
      company: 'Acme',
      contact_id: 1,
    });
  });

  it('reads a caller id however the platform writes it, as every number is read', () => {
    const directory = { lookupByNumber: () => undefined, findBySpeedDial: () => undefined };
    for (const written of ['030/1234567', '030 1234567', '+49 (30) 1234567', '0049 30 1234567']) {
      expect(identifyParty(written, { region: 'DE', directory }), written).toEqual({
        number: '+49301234567',
        display: '030 1234567',
      });
    }
    // What reads as no number of the region stays as it came.
    const sip = 'sip:reception7@pbx.example';
    expect(identifyParty(sip, { region: 'DE', directory }).number).toBe(sip);
  });

  it('takes the caller from a later event when the first did not name them', () => {
    const { tracker } = rig();
    tracker.ingest({ id: 'leg-1', call_id: 'c1' });
    expect(tracker.view().current[0]!.party).toEqual({ number: '', display: 'Unknown caller' });
    tracker.reidentify();
    expect(tracker.view().current[0]!.party.display).toBe('Unknown caller');
    tracker.ingest({ id: 'leg-1', call_id: 'c1', direction: 'inbound', from: '+12025550199' });
    expect(tracker.view().current[0]!.party).toEqual({
      number: '+12025550199',
      display: '(202) 555-0199',
    });
  });
});
