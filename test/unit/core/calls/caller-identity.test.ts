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
    // A SIP address whose user part is a number is that number.
    expect(identifyParty('sip:+49301234567@pbx.example.com', { region: 'DE', directory })).toEqual({
      number: '+49301234567',
      display: '030 1234567',
    });
    expect(identifyParty('201@pbx.example.com', { region: 'DE', directory }).number).toBe('201');
  });

  it('reads away what is no part of the number, as the reader does, never gluing it on', () => {
    // Before, every digit of the caller id was the number: "+49 30 1234567 ext. 12" was called
    // back as +49 30 123456712, a link's phone-context made +49 30 123456749, and digits of
    // another script were no number at all.
    const directory = { lookupByNumber: () => undefined, findBySpeedDial: () => undefined };
    for (const written of [
      'tel:030-1234567;phone-context=+49',
      '+49 30 1234567,,1234#',
      '٠٣٠ ١٢٣٤٥٦٧',
      '０３０ １２３４５６７',
    ]) {
      expect(identifyParty(written, { region: 'DE', directory }), written).toEqual({
        number: '+49301234567',
        display: '030 1234567',
      });
    }
    // A national number without its area code stays as written (matched by its ending).
    expect(identifyParty('1234567', { region: 'DE', directory }).number).toBe('1234567');
  });

  it('shows the extension a caller id writes after the number, never dialling it', () => {
    // Before, "+49 30 1234567 ext. 12" was shown as 030 1234567: the extension was dropped.
    const directory = { lookupByNumber: () => undefined, findBySpeedDial: () => undefined };
    for (const written of [
      '+49 30 1234567 ext. 12',
      '+49 30 1234567 x12',
      '030 1234567 ext.12',
      'tel:+49-30-1234567;ext=12',
      // Before, an extension in a SIP address's user part was dropped (RFC 3261 19.1.6).
      'sip:+49-30-1234567;ext=12@pbx.example.com',
      'sip:+49301234567;ext=12@pbx.example.com;user=phone',
      '+49301234567;ext=12@pbx.example.com',
    ]) {
      expect(identifyParty(written, { region: 'DE', directory }), written).toEqual({
        number: '+49301234567',
        display: '030 1234567 ext. 12',
        extension: '12',
      });
    }
    // A parameter that is no extension's digits is none: the number alone.
    expect(
      identifyParty('sip:+49301234567;ext=%E2%80%AE12@pbx.example.com', {
        region: 'DE',
        directory,
      }),
    ).toEqual({ number: '+49301234567', display: '030 1234567' });
    // Called back (and dialled) as the number alone; shown with it in the call bar.
    const { tracker } = rig();
    tracker.ingest({
      id: 'leg-1',
      call_id: 'c1',
      direction: 'inbound',
      from: '+1 202 555 0188 ext. 12',
    });
    expect(tracker.view().current[0]!.party).toEqual({
      number: '+12025550188',
      display: '(202) 555-0188 ext. 12',
      extension: '12',
    });
  });

  it('names an emergency number as the dial did, not as an extension', () => {
    // Before, a dial of 911 was "Emergency 911" when asked and "Extension 911" in the call bar
    // and Recent calls.
    const directory = { lookupByNumber: () => undefined, findBySpeedDial: () => undefined };
    expect(identifyParty('911', { region: 'US', directory }).display).toBe('Emergency 911');
    expect(identifyParty('112', { region: 'DE', directory }).display).toBe('Emergency 112');
    expect(identifyParty('201', { region: 'DE', directory }).display).toBe('Extension 201');
  });

  it('shows a SIP address that names no number as the text it is, with no number', () => {
    // Before, an address without a digit was "Number withheld", and one with a digit in its
    // name or host (reception7, 10.0.0.5) was kept as a number to call back and look up.
    let asked = 0;
    const directory = {
      lookupByNumber: () => {
        asked++;
        return undefined;
      },
      findBySpeedDial: () => undefined,
    };
    for (const address of [
      'sip:alice@pbx.example.com',
      'alice@example.com',
      'sip:reception@acme.example',
      'SIPS:Reception7@pbx.example',
      'sip:bob@10.0.0.5',
      '<b>Eve</b>',
    ]) {
      expect(identifyParty(` ${address} `, { region: 'DE', directory }), address).toEqual({
        number: '',
        display: address,
      });
    }
    expect(asked).toBe(0);
    // The withheld words stay withheld, in any case, and as a SIP address's user (RFC 3323).
    for (const withheld of [
      'anonymous',
      'Restricted',
      'PRIVATE',
      'Unavailable',
      'sip:anonymous@anonymous.invalid',
      'Anonymous@pbx.example.com',
    ]) {
      expect(identifyParty(withheld, { region: 'DE', directory }), withheld).toEqual({
        number: '',
        display: 'Number withheld',
      });
    }
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
