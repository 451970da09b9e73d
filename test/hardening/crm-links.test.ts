/**
 * CRM link-outs are a new output to the browser: attacked here through the real core connected to
 * the simulator. Templates that would open something other than an https page (javascript:,
 * data:, file:, http:, credentials in the URL, a CR/LF, a placeholder in the host, a huge one)
 * are refused by settings.save with the reason; hostile contact values (path and query breakers,
 * CR/LF, bidi overrides, a megabyte) stay URL-encoded inside their parameter at the template's
 * origin, bounded in length; a flood of forged connected calls with auto-open on opens at most
 * two browser tabs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../simulator/index';
import { MAX_URL_CHARS, MAX_VALUE_CHARS } from '../../src-main/core/crm/crm-template';
import { silentLogger } from '../../src-main/core/log/logger';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import type { CallsSnapshot } from '../../src-shared/contract';
import { eventForger, type EventForger } from '../support/event-forger';
import { startSim } from '../support/sim-harness';
import { until } from '../support/until';
import { connectedCore, type ConnectedCore } from '../support/hardening/connected-core';
import { recordFigure } from '../support/hardening/figures';

const TEMPLATE = 'https://crm.example.com/search?phone={e164}&who={name}&org={company}';

const HOSTILE_TEMPLATES = [
  'javascript:alert(document.domain)//{e164}',
  'data:text/html,<script>alert(1)</script>{name}',
  'file:///etc/passwd?{e164}',
  'http://crm.example.com/?p={e164}',
  'https://admin:hunter2@crm.example.com/?p={e164}',
  'https://crm.example.com/?p={e164}\r\nSet-Cookie: x=1',
  'https://{company}.attacker.example/',
  'https://crm.example.com/' + 'a'.repeat(2000) + '{e164}',
  'HTTPS://crm.example.com/?p={e164}&x={secret}',
  'https://crm.example.com\\@attacker.example/{name}',
];

describe('CRM link-outs under attack', () => {
  let sim: RunningSimulator;
  let rig: ConnectedCore;
  let forger: EventForger;
  const opened: string[] = [];

  beforeAll(async () => {
    sim = await startSim({ profile: 'rich' });
    rig = await connectedCore(sim, {
      vault: new MemoryVault(),
      log: () => silentLogger,
      core: {
        openCrmUrl: (url) => {
          opened.push(url);
          return Promise.resolve();
        },
      },
    });
    forger = await eventForger(sim);
  });
  afterAll(async () => {
    forger?.close();
    await rig?.core.close();
    await sim?.close();
  });

  it('refuses every template that is not a plain https page, saying why', async () => {
    let refused = 0;
    for (const template of HOSTILE_TEMPLATES) {
      const answer = await rig.invoke('settings.save', { crm_links: [template] });
      // Refused by the settings' schema (with the reason), or, past 1,000 characters, by the
      // channel's own bound before it reaches the settings.
      if (!answer.ok) refused++;
      else throw new Error(`accepted ${JSON.stringify(template)}`);
      expect(answer.error.message).toMatch(/crm_links/);
    }
    recordFigure(
      'hostile CRM templates refused by settings.save (javascript:, data:, file:, http:, credentials, CRLF, placeholder host, 2 KB, unknown placeholder, backslash host)',
      `${refused} of ${HOSTILE_TEMPLATES.length}`,
    );
    expect(refused).toBe(HOSTILE_TEMPLATES.length);
    const links = await rig.invoke('crm.links');
    expect(links).toMatchObject({ ok: true, value: [] });
  });

  it('keeps hostile contact values inside their parameter, at the template origin, bounded', async () => {
    const saved = await rig.invoke('settings.save', {
      crm_links: [TEMPLATE],
      crm_open_on_connect: true,
    });
    expect(saved.ok).toBe(true);
    const names = [
      '../../admin?role=root#x',
      'Eve&who=Mallory',
      'Eve\r\nLocation: https://attacker.example/',
      'Eve\u202egpj.exe',
      '%0d%0aSet-Cookie:%20x=1',
      'é'.repeat(1_000),
    ];
    let longest = 0;
    for (const name of names) {
      const answer = await rig.invoke('crm.open', {
        link: 0,
        party: { number: '+12025550100', name, company: name },
      });
      expect(answer.ok).toBe(true);
      const url = new URL(opened.at(-1)!);
      longest = Math.max(longest, opened.at(-1)!.length);
      expect(url.origin).toBe('https://crm.example.com');
      expect(url.pathname).toBe('/search');
      expect([...url.searchParams.keys()]).toEqual(['phone', 'who', 'org']);
      expect(opened.at(-1)).not.toMatch(/[\r\n\u202e]/);
    }
    recordFigure(
      'CRM addresses built from hostile contact values that left their parameter or the origin',
      `0 of ${names.length} (longest address ${longest} characters, bound ${MAX_URL_CHARS})`,
    );
    // A megabyte-long name never reaches the core: the request is refused by its schema.
    const huge = await rig.invoke('crm.open', {
      link: 0,
      party: { number: '+12025550100', name: 'x'.repeat(1024 * 1024) },
    });
    expect(huge.ok).toBe(false);
  });

  it('cuts a value between whole characters, and says it cannot build a link for half of one', async () => {
    const saved = await rig.invoke('settings.save', { crm_links: [TEMPLATE] });
    expect(saved.ok).toBe(true);
    // An emoji (two UTF-16 code units) across the cut at the 200th: cut before it, whole.
    const name = `${'a'.repeat(MAX_VALUE_CHARS - 1)}😀 and more`;
    const cut = await rig.invoke('crm.open', { link: 0, party: { number: '+12025550100', name } });
    expect(cut).toMatchObject({ ok: true });
    const who = new URL(opened.at(-1)!).searchParams.get('who');
    expect(who).toBe('a'.repeat(MAX_VALUE_CHARS - 1));
    // Half of a character (a lone surrogate) can be in no address: said, never `internal`.
    const half = await rig.invoke('crm.open', {
      link: 0,
      party: { number: '+12025550100', name: 'Eve \ud83d' },
    });
    expect(half).toMatchObject({ ok: false, error: { code: 'crm_link_unusable' } });
    if (half.ok) return;
    expect(half.error.message).toBe(
      'Callbar cannot build this link to crm.example.com: the contact holds text that no address can carry (half of a character).',
    );
    recordFigure(
      'CRM link for a name with an emoji across the 200th character / with half a character',
      `opened, cut to ${who?.length} characters / refused: ${half.error.code}`,
    );
  });

  it('opens no link whose path a contact’s ".." or "." would climb', async () => {
    const place = 'https://crm.example.com/tenants/acme/contacts/{name}/calls?from={e164}';
    const saved = await rig.invoke('settings.save', { crm_links: [place] });
    expect(saved.ok).toBe(true);
    const before = opened.length;
    const climbed: string[] = [];
    for (const name of ['..', '.']) {
      const answer = await rig.invoke('crm.open', {
        link: 0,
        party: { number: '+12025550100', name },
      });
      // Before: opened https://crm.example.com/tenants/acme/contacts/../calls (/tenants/acme/calls).
      if (answer.ok) climbed.push(new URL(opened.at(-1)!).pathname);
      expect(answer).toMatchObject({ ok: false, error: { code: 'crm_link_unusable' } });
      if (answer.ok) continue;
      expect(answer.error.message).toBe(
        'Callbar does not open this link to crm.example.com: the contact’s name or company is “.” or “..”, which in the address would lead to another page of the CRM than the one set.',
      );
    }
    expect(opened.length).toBe(before);
    const ordinary = await rig.invoke('crm.open', {
      link: 0,
      party: { number: '+12025550100', name: 'Eve..' },
    });
    expect(ordinary.ok).toBe(true);
    expect(new URL(opened.at(-1)!).pathname).toBe('/tenants/acme/contacts/Eve../calls');
    recordFigure(
      'CRM link in the path for a contact named ".." / "."',
      `refused, 0 opened (before: /tenants/acme/calls, /tenants/acme/contacts/calls)`,
    );
    await rig.invoke('settings.save', { crm_links: [TEMPLATE] });
    expect(climbed).toEqual([]);
  });

  it('opens at most two tabs for a flood of forged connected calls', async () => {
    const before = opened.length;
    const FLOOD = 100;
    for (let index = 0; index < FLOOD; index++) {
      await forger.post({
        id: `flood-leg-${index}`,
        call_id: `flood-call-${index}`,
        event: 'answered',
        state: 'answered',
        direction: 'inbound',
        leg: 'callee',
        party: sim.users[0]!.extension,
        from: `+1202555${String(1000 + index)}`,
        to: sim.users[0]!.extension,
        sequence: 1,
      });
    }
    await until('the flood taken', async () => {
      const answer = await rig.invoke('calls.list');
      return answer.ok &&
        (answer.value as CallsSnapshot).current.some((call) => call.state === 'connected')
        ? true
        : undefined;
    });
    const tabs = opened.length - before;
    recordFigure(`CRM tabs opened by ${FLOOD} forged connected calls (auto-open on)`, tabs);
    expect(tabs).toBeLessThanOrEqual(2);
    expect(opened.slice(before).every((url) => url.startsWith('https://crm.example.com/'))).toBe(
      true,
    );
  });
});
