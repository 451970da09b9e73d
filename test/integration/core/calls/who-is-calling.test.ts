/**
 * Who is calling, CRM link-outs and call notes, end to end: the real core connected through the
 * portal, the simulator ringing the user's phone for an incoming call and POSTing its events to
 * the receiver. Under `rich` the events name the caller: an unknown number is shown as a number,
 * and once the window's "Add to contacts" created the contact the call shows their name and
 * company; when the call connects, the first CRM link opens by itself (once), filled with the
 * caller, every value URL-encoded. Under `minimal` ({id}-only events) nothing names the caller:
 * the call stays "Unknown caller", no link opens by itself, and nothing breaks. A note on the ended
 * call is kept, listed and exported; a call still connected when Callbar starts again opens no
 * link a second time. (A flood of connected calls: test/hardening/crm-links.test.ts.)
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SimControl } from '../../../../simulator/control-client';
import type { RunningSimulator } from '../../../../simulator/index';
import type { CallsSnapshot, PhonebookView } from '../../../../src-shared/contract';
import { startCore } from '../../../../src-main/core/callbar-core';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { openProfile } from '../../../../src-main/core/profile';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import type { Vault } from '../../../../src-main/core/vault/vault';
import { connectedCore, type ConnectedCore } from '../../../support/hardening/connected-core';
import { advanceClock, describeJourney, fullEvents, startSim } from '../../../support/sim-harness';
import { until } from '../../../support/until';

/** A caller the directory does not know yet, and the name a coworker gives them. */
const CALLER = '+12025550188';
const HOSTILE_NAME = 'Eve & Co/../admin?x=1#top\u202e';
const TEMPLATE = 'https://crm.example.com/search?phone={e164}&who={name}&org={company}';

/**
 * `vault` answering its reads `ms` later, as the system keychain answers a start: on another
 * thread, after the call log has been read.
 */
const answeringLater = (vault: Vault, ms: number): Vault => ({
  load: () => new Promise((wait) => setTimeout(wait, ms)).then(() => vault.load()),
  save: (account) => vault.save(account),
  clear: () => vault.clear(),
  webhookSecret: () => vault.webhookSecret(),
  readRetiredDevices: () => vault.readRetiredDevices(),
  writeRetiredDevices: (text) => vault.writeRetiredDevices(text),
});

describeJourney('who is calling', (profile) => {
  let sim: RunningSimulator;
  let control: SimControl;
  let rig: ConnectedCore;
  const vault = new MemoryVault();
  const opened: string[] = [];
  const openCrmUrl = (url: string) => {
    opened.push(url);
    return Promise.resolve();
  };

  const snapshot = () => rig.value<CallsSnapshot>('calls.list');

  beforeAll(async () => {
    sim = await startSim({ profile });
    control = new SimControl(sim.base_url);
    rig = await connectedCore(sim, { vault, log: () => silentLogger, core: { openCrmUrl } });
  });
  afterAll(async () => {
    await rig?.core.close();
    await sim?.close();
  });

  it('refuses CRM templates that are not https, naming the template and why', async () => {
    for (const [template, why] of [
      ['javascript:alert(1)//{e164}', 'must start with https://'],
      ['https://{company}.evil.example/', 'part of the host'],
      ['https://me:pw@crm.example.com/{e164}', 'user name or password'],
    ] as const) {
      const refused = await rig.invoke('settings.save', { crm_links: [template] });
      expect(refused).toMatchObject({ ok: false, error: { field: 'crm_links' } });
      expect(!refused.ok && refused.error.message).toContain(why);
    }
    expect(await rig.value('crm.links')).toEqual([]);
    // Saved, it applies at once: offered, and opened by itself when a call connects.
    await rig.value('settings.save', { crm_links: [TEMPLATE], crm_open_on_connect: true });
    expect(await rig.value('crm.links')).toEqual([{ index: 0, label: 'crm.example.com' }]);
  });

  it('names an unknown caller once they are added to contacts, and opens the CRM once', async () => {
    await advanceClock(sim, 61);
    const incoming = await control.incomingCall({
      tenant_id: sim.tenant_id,
      user_extension: '201',
      from: CALLER,
    });
    await control.webhooksSettled(20_000);
    const ringing = (await snapshot()).current[0]!;
    expect(ringing.direction).toBe('incoming');
    if (fullEvents(profile)) {
      // Shown the national way in the user's own country (US here).
      expect(ringing.party).toEqual({
        number: CALLER,
        display: '(202) 555-0188',
        number_shown: '(202) 555-0188',
      });
    } else {
      expect(ringing.party).toEqual({ number: '', display: 'Unknown caller' });
    }

    // The call bar's "Add to contacts", with the number filled in.
    const book = await rig.value<PhonebookView>('phonebooks.create', {
      description: 'Callers',
      priority: 1,
      is_shared: false,
    });
    await rig.value('contacts.create', {
      phonebook: book.id,
      display_name: HOSTILE_NAME,
      number: CALLER,
      speed_dial: 4188,
      company: 'Acme <b>&</b>',
      secondary_number: '',
    });
    const named = (await snapshot()).current.find((call) => call.id === ringing.id)!;
    if (fullEvents(profile)) {
      expect(named.party).toMatchObject({ name: HOSTILE_NAME, company: 'Acme <b>&</b>' });
    } else {
      expect(named.party).toEqual({ number: '', display: 'Unknown caller' });
    }

    // The user picks up: under rich the call connects and the first CRM link opens, once.
    await control.answerLeg(incoming.legs[1]!.id);
    await control.webhooksSettled(20_000);
    if (fullEvents(profile)) {
      await until('the CRM link', () => Promise.resolve(opened[0]));
      expect(opened).toHaveLength(1);
      const url = new URL(opened[0]!);
      expect(url.origin).toBe('https://crm.example.com');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        phone: CALLER,
        who: HOSTILE_NAME,
        org: 'Acme <b>&</b>',
      });
      expect(opened[0]).toContain('who=Eve%20%26%20Co%2F..%2Fadmin%3Fx%3D1%23top%E2%80%AE');
    } else {
      expect((await snapshot()).current[0]!.state).toBe('in-progress');
      expect(opened).toEqual([]);
    }
    // Offered by hand, too (contacts, recent calls, the call bar), whatever the profile.
    await rig.value('crm.open', { link: 0, party: { number: CALLER, name: 'Ada' } });
    expect(opened.at(-1)).toBe('https://crm.example.com/search?phone=%2B12025550188&who=Ada&org=');
    expect(await rig.invoke('crm.open', { link: 1, party: { number: CALLER } })).toMatchObject({
      ok: false,
      error: { code: 'crm_link_unknown' },
    });
    await rig.value('calls.hangup');
  });

  it('keeps a note on the ended call, in the profile, searchable by the window', async () => {
    const ended = (await snapshot()).recent[0]!;
    const refused = await rig.invoke('calls.setNote', { call_id: ended.id, note: 'a\u0007b' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'note_invalid' } });
    const noted = await rig.value<CallsSnapshot>('calls.setNote', {
      call_id: ended.id,
      note: '  Wants a callback Tuesday =SUM(A1)  ',
    });
    expect(noted.recent[0]).toMatchObject({
      id: ended.id,
      note: 'Wants a callback Tuesday =SUM(A1)',
    });
    const file = join(rig.dataDir, 'call-notes.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      version: 1,
      notes: [{ call_id: ended.id, note: 'Wants a callback Tuesday =SUM(A1)' }],
    });
    expect(await rig.invoke('calls.setNote', { call_id: 'nope', note: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'call_not_found' },
    });
    // Exported with the call history (a formula in a note is written after an apostrophe).
    const started = await rig.value<{ export_id: string; file_name: string }>('exports.start', {
      what: 'calls',
    });
    expect(started.file_name).toBe('callbar-recent-calls.csv');
    const piece = await rig.value<{ text: string; done: boolean }>('exports.read', {
      export_id: started.export_id,
    });
    expect(piece.done).toBe(true);
    // A file, so UTF-8's byte-order mark first (Excel reads the names' accents as written).
    expect(piece.text.split('\r\n')[0]).toBe(
      '\uFEFFStarted,Direction,State,Name,Company,Number,Talk time (s),Reason,Note',
    );
    expect(piece.text).toContain('Wants a callback Tuesday =SUM(A1)');
    // Removed with an empty note; and kept with the call while a Clear can be undone.
    const cleared = await rig.value<CallsSnapshot>('calls.setNote', {
      call_id: ended.id,
      note: '',
    });
    expect(cleared.recent[0]!.note).toBeUndefined();
    await rig.value('calls.setNote', { call_id: ended.id, note: 'back with Undo' });
    const hidden = await rig.value<CallsSnapshot>('calls.clearRecent');
    expect(hidden.recent).toEqual([]);
    expect(hidden.cleared?.count).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      notes: [{ call_id: ended.id, note: 'back with Undo' }],
    });
    const back = await rig.value<CallsSnapshot>('calls.undoClear');
    expect(back.cleared).toBeUndefined();
    expect(back.recent[0]).toMatchObject({ id: ended.id, note: 'back with Undo' });
  });

  it.runIf(fullEvents(profile))(
    'opens no CRM link again for a call still connected when Callbar starts again',
    async () => {
      const ringing = (from: string) =>
        control.incomingCall({ tenant_id: sim.tenant_id, user_extension: '201', from });
      const first = await ringing('+12025550199');
      await control.webhooksSettled(20_000);
      await control.answerLeg(first.legs[1]!.id);
      await control.webhooksSettled(20_000);
      await until('the CRM link', () =>
        Promise.resolve(opened.find((url) => url.includes('2025550199'))),
      );
      const before = opened.length;

      // Callbar quits and starts again on the same profile while the call goes on.
      const env = rig.core.profile.env;
      await rig.core.close();
      const again = await startCore({
        runtime: 'preview',
        profile: openProfile({ env, vault: answeringLater(vault, 100), log: silentLogger }),
        openUrl: () => Promise.resolve(),
        openCrmUrl,
      });
      rig = { ...rig, core: again };
      // Its receiver takes the platform's call events again.
      await again.profile.account.listen();
      // Another call rings: the calls change with the first one still connected.
      await ringing('+12025550123');
      await control.webhooksSettled(20_000);
      await until('both calls', async () => {
        const listed = await again.router.invoke('calls.list', {});
        return listed.ok && (listed.value as CallsSnapshot).current.length === 2 ? true : undefined;
      });
      expect(opened).toHaveLength(before);
    },
  );
});
