import { describe, expect, it } from 'vitest';
import type { AccountState } from '../../../../src-shared/contract';
import {
  TRAY_RECENT_CALLS,
  TRAY_TOOLTIP_MAX,
  trayIcon,
  trayMenu,
  trayTooltip,
  type TrayAccount,
  type TrayMenuItem,
} from '../../../../src-main/core/desktop/tray-model';
import { call, snapshot } from '../../../support/desktop-fixtures';

/** How the tray isolates a name (first-strong) and a number (left to right). */
const name = (text: string) => `\u2068${text}\u2069`;
const num = (text: string) => `\u2066${text}\u2069`;
/** The account line for extension 201 of acme-7f3a. */
const EXT_201 = `Ext. ${num('201')} (${name('acme-7f3a')})`;

/** An account in `state`, for extension 201 of tenant acme-7f3a unless said otherwise. */
const acct = (
  state: AccountState,
  who: Partial<TrayAccount> = { tenant_id: 'acme-7f3a', user_extension: '201' },
): TrayAccount => ({ state, ...who });
const nobody = (state: AccountState): TrayAccount => ({ state });

const labels = (items: TrayMenuItem[]) =>
  items.map((item) => (item.type === 'separator' ? '—' : item.label));
const find = (items: TrayMenuItem[], label: string) =>
  items.find((item) => item.type !== 'separator' && item.label === label);

describe('tray icon and tooltip', () => {
  it('reflects not connected / connected / in a call', () => {
    expect(trayIcon({ account: acct('not-connected'), calls: snapshot() })).toBe('not-connected');
    expect(trayIcon({ account: acct('offline'), calls: snapshot() })).toBe('not-connected');
    expect(trayIcon({ account: acct('needs-activation'), calls: snapshot() })).toBe(
      'not-connected',
    );
    expect(trayIcon({ account: acct('connected'), calls: snapshot() })).toBe('connected');
    const live = snapshot({ current: [call({ state: 'connected' })] });
    expect(trayIcon({ account: acct('connected'), calls: live })).toBe('in-call');
    // A call that ended but is still listed as current does not count.
    const over = snapshot({ current: [call({ state: 'ended' })] });
    expect(trayIcon({ account: acct('connected'), calls: over })).toBe('connected');
  });

  it('says who the call is with, or the account state', () => {
    const live = snapshot({
      current: [
        call({
          state: 'ringing',
          party: { number: '201', display: 'Extension 201', name: 'Anna' },
        }),
      ],
    });
    expect(trayTooltip({ account: acct('connected'), calls: live })).toBe(
      `Callbar — in a call with ${name('Anna')}`,
    );
    expect(trayTooltip({ account: acct('needs-activation'), calls: snapshot() })).toBe(
      `Callbar — Session ended — reconnect ${EXT_201}`,
    );
  });

  it('names the account in every state, and says plainly when there is none', () => {
    const tooltip = (account: TrayAccount) => trayTooltip({ account, calls: snapshot() });
    expect(tooltip(acct('connected'))).toBe(`Callbar — ${EXT_201}`);
    expect(tooltip(acct('offline'))).toBe(`Callbar — Offline · ${EXT_201}`);
    expect(tooltip(acct('not-connected', {}))).toBe('Callbar — Not connected');
    expect(tooltip(acct('activating', {}))).toBe('Callbar — Connecting…');
    expect(tooltip(acct('vault-unavailable', {}))).toBe('Callbar — Keychain unavailable');
    // A status that does not know whose session it was (the session-ended marker alone).
    expect(tooltip(nobody('needs-activation'))).toBe('Callbar — Session ended — reconnect');
    expect(tooltip(nobody('offline'))).toBe('Callbar — Offline');
    expect(tooltip(nobody('connected'))).toBe('Callbar — Connected');
    expect(tooltip(acct('connected', { user_extension: '201' }))).toBe(
      `Callbar — Ext. ${num('201')}`,
    );
  });

  it('keeps a long tenant within what Windows shows of a tooltip', () => {
    const tenant = 'a-very-long-tenant-identifier-'.repeat(6);
    const text = trayTooltip({
      account: acct('connected', { tenant_id: tenant, user_extension: '2001' }),
      calls: snapshot(),
    });
    expect(text).toHaveLength(TRAY_TOOLTIP_MAX);
    expect(text.startsWith(`Callbar — Ext. ${num('2001')} (\u2068a-very-long-tenant-`)).toBe(true);
    // The tenant's isolate, cut short, is closed after the ellipsis.
    expect(text.endsWith('…\u2069')).toBe(true);
  });
});

describe('tray menu', () => {
  it('while connected: recent calls, favourites, dial clipboard, open, quit', () => {
    const menu = trayMenu({
      account: acct('connected'),
      calls: snapshot(),
      favourites: [{ label: 'Reception', number: '100' }],
    });
    expect(labels(menu)).toEqual([
      EXT_201,
      '—',
      'Favourites',
      'Recent calls',
      'Dial clipboard',
      '—',
      'Open Callbar',
      'Quit Callbar',
    ]);
    expect(find(menu, 'Recent calls')).toMatchObject({ enabled: false, submenu: [] });
    expect(find(menu, 'Favourites')).toMatchObject({
      enabled: true,
      submenu: [{ label: name('Reception'), action: { kind: 'dial', number: '100' } }],
    });
    expect(find(menu, 'Dial clipboard')).toMatchObject({
      enabled: true,
      action: { kind: 'dial-clipboard' },
    });
    expect(find(menu, 'Quit Callbar')).toMatchObject({ action: { kind: 'quit' } });
  });

  it('lists the 5 most recent calls, newest first, each dialing its number', () => {
    const recent = Array.from({ length: 8 }, (_, i) =>
      call({
        state: 'ended',
        direction: i % 2 ? 'incoming' : 'outgoing',
        party: {
          number: `20${i}`,
          display: `Extension 20${i}`,
          ...(i === 0 ? { name: 'Anna & Co' } : {}),
        },
      }),
    );
    recent.push(call({ state: 'ended', party: { number: '', display: 'Unknown caller' } }));
    const menu = trayMenu({
      account: acct('connected'),
      calls: snapshot({ recent }),
      favourites: [],
    });
    const item = find(menu, 'Recent calls');
    expect(item?.type).toBe('submenu');
    const entries = item?.type === 'submenu' ? item.submenu : [];
    expect(entries).toHaveLength(TRAY_RECENT_CALLS);
    // "&" is doubled so Windows shows it instead of underlining the next letter.
    expect(entries[0]).toMatchObject({
      label: `↗ ${name('Anna && Co')}`,
      action: { kind: 'dial', number: '200' },
    });
    expect(entries[1]).toMatchObject({
      label: `↙ ${num('Extension 201')}`,
      action: { kind: 'dial', number: '201' },
    });
  });

  it('an anonymous recent call cannot be redialled', () => {
    const recent = [
      call({
        state: 'ended',
        direction: 'incoming',
        party: { number: '', display: 'Unknown caller' },
      }),
    ];
    const menu = trayMenu({
      account: acct('connected'),
      calls: snapshot({ recent }),
      favourites: [],
    });
    const item = find(menu, 'Recent calls');
    expect(item?.type === 'submenu' && item.submenu[0]).toEqual({
      type: 'normal',
      label: `↙ ${num('Unknown caller')}`,
      enabled: false,
    });
  });

  it('offers "Hang up" for each live call, at the top', () => {
    const live = call({
      state: 'connected',
      party: { number: '201', display: 'Extension 201', name: 'Anna' },
    });
    const menu = trayMenu({
      account: acct('connected'),
      calls: snapshot({ current: [live] }),
      favourites: [],
    });
    expect(menu[2]).toEqual({
      type: 'normal',
      label: `Hang up ${name('Anna')}`,
      enabled: true,
      action: { kind: 'hangup', callId: live.id },
    });
    expect(menu[3]).toEqual({ type: 'separator' });
    expect(
      labels(trayMenu({ account: acct('connected'), calls: snapshot(), favourites: [] })),
    ).not.toContain(`Hang up ${name('Anna')}`);
  });

  it('when not connected, dialing is disabled and Connect is offered', () => {
    const recent = [call({ state: 'ended' })];
    for (const state of ['not-connected', 'needs-activation'] as const) {
      const account = acct(state);
      const menu = trayMenu({
        account,
        calls: snapshot({ recent }),
        favourites: [{ label: 'R', number: '1' }],
      });
      expect(find(menu, 'Dial clipboard')).toMatchObject({ enabled: false });
      expect(find(menu, 'Recent calls')).toMatchObject({ enabled: false });
      expect(find(menu, 'Favourites')).toMatchObject({ enabled: false });
      const connect = menu.find(
        (item) => item.type === 'normal' && item.action?.kind === 'connect',
      );
      expect(connect, state).toBeDefined();
    }
    const offline = trayMenu({ account: acct('offline'), calls: snapshot(), favourites: [] });
    expect(labels(offline)).toContain('Open Callbar');
    expect(labels(offline)).toContain('Quit Callbar');
  });

  it('begins with whose account it is, not clickable, in every state', () => {
    const first = (account: TrayAccount) =>
      trayMenu({ account, calls: snapshot(), favourites: [] }).slice(0, 2);
    const line = (label: string) => [
      { type: 'normal', label, enabled: false },
      { type: 'separator' },
    ];
    expect(first(acct('connected'))).toEqual(line(EXT_201));
    expect(first(acct('offline'))).toEqual(line(`Offline · ${EXT_201}`));
    expect(first(acct('needs-activation'))).toEqual(line(`Session ended — reconnect ${EXT_201}`));
    expect(first(nobody('not-connected'))).toEqual(line('Not connected'));
    expect(first(nobody('vault-unavailable'))).toEqual(line('Keychain unavailable'));
    // A tenant is shown as written, not as a Windows access key.
    expect(first(acct('connected', { tenant_id: 'R&D', user_extension: '7' }))).toEqual(
      line(`Ext. ${num('7')} (${name('R&&D')})`),
    );
  });
});

describe('bidi: a name cannot turn the number beside it around', () => {
  const RLO = '\u202e';
  const PDI = '\u2069';

  it('isolates names and numbers, and shows the bidi controls a name holds as text', () => {
    const hostile = call({
      state: 'ended',
      party: { number: '+14155550121', display: '+1 415-555-0121', name: `Ann ${PDI}${RLO}1210` },
    });
    const live = call({ state: 'ringing', party: { number: '+4930123', display: '+49 30 123' } });
    const state = {
      account: acct('connected'),
      calls: snapshot({ current: [live], recent: [hostile] }),
      favourites: [],
    };
    const item = find(trayMenu(state), 'Recent calls');
    const entry = item?.type === 'submenu' ? item.submenu[0] : undefined;
    const label = entry?.type === 'normal' ? entry.label : undefined;
    // The name's own PDI cannot close the isolate, nor its RLO reach past it.
    expect(label).toBe('↗ \u2068Ann \\u2069\\u202e1210\u2069');
    expect(trayMenu(state)[2]).toMatchObject({ label: 'Hang up \u2066+49 30 123\u2069' });
    expect(trayTooltip(state)).toBe('Callbar — in a call with \u2066+49 30 123\u2069');
  });
});
