import { describe, expect, it } from 'vitest';
import type { AccountState } from '../../src-preload/contract';
import {
  TRAY_RECENT_CALLS,
  TRAY_TOOLTIP_MAX,
  trayIcon,
  trayMenu,
  trayTooltip,
  type TrayAccount,
  type TrayMenuItem,
} from '../../src-main/core/desktop/tray-model';
import { call, snapshot } from './fixtures';

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
      'Callbar — in a call with Anna',
    );
    expect(trayTooltip({ account: acct('needs-activation'), calls: snapshot() })).toBe(
      'Callbar — Session ended — reconnect Ext. 201 (acme-7f3a)',
    );
  });

  it('names the account in every state, and says plainly when there is none', () => {
    const tooltip = (account: TrayAccount) => trayTooltip({ account, calls: snapshot() });
    expect(tooltip(acct('connected'))).toBe('Callbar — Ext. 201 (acme-7f3a)');
    expect(tooltip(acct('offline'))).toBe('Callbar — Offline · Ext. 201 (acme-7f3a)');
    expect(tooltip(acct('not-connected', {}))).toBe('Callbar — Not connected');
    expect(tooltip(acct('activating', {}))).toBe('Callbar — Connecting…');
    expect(tooltip(acct('vault-unavailable', {}))).toBe('Callbar — Keychain unavailable');
    // A status that does not know whose session it was (the session-ended marker alone).
    expect(tooltip(nobody('needs-activation'))).toBe('Callbar — Session ended — reconnect');
    expect(tooltip(nobody('offline'))).toBe('Callbar — Offline');
    expect(tooltip(nobody('connected'))).toBe('Callbar — Connected');
    expect(tooltip(acct('connected', { user_extension: '201' }))).toBe('Callbar — Ext. 201');
  });

  it('keeps a long tenant within what Windows shows of a tooltip', () => {
    const tenant = 'a-very-long-tenant-identifier-'.repeat(6);
    const text = trayTooltip({
      account: acct('connected', { tenant_id: tenant, user_extension: '2001' }),
      calls: snapshot(),
    });
    expect(text).toHaveLength(TRAY_TOOLTIP_MAX);
    expect(text.startsWith('Callbar — Ext. 2001 (a-very-long-tenant-identifier-')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
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
      'Ext. 201 (acme-7f3a)',
      '—',
      'Recent calls',
      'Favourites',
      'Dial clipboard',
      '—',
      'Open Callbar',
      'Quit Callbar',
    ]);
    expect(find(menu, 'Recent calls')).toMatchObject({ enabled: false, submenu: [] });
    expect(find(menu, 'Favourites')).toMatchObject({
      enabled: true,
      submenu: [{ label: 'Reception', action: { kind: 'dial', number: '100' } }],
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
      label: '↗ Anna && Co',
      action: { kind: 'dial', number: '200' },
    });
    expect(entries[1]).toMatchObject({
      label: '↙ Extension 201',
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
      label: '↙ Unknown caller',
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
      label: 'Hang up Anna',
      enabled: true,
      action: { kind: 'hangup', callId: live.id },
    });
    expect(menu[3]).toEqual({ type: 'separator' });
    expect(
      labels(trayMenu({ account: acct('connected'), calls: snapshot(), favourites: [] })),
    ).not.toContain('Hang up Anna');
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
    expect(first(acct('connected'))).toEqual(line('Ext. 201 (acme-7f3a)'));
    expect(first(acct('offline'))).toEqual(line('Offline · Ext. 201 (acme-7f3a)'));
    expect(first(acct('needs-activation'))).toEqual(
      line('Session ended — reconnect Ext. 201 (acme-7f3a)'),
    );
    expect(first(nobody('not-connected'))).toEqual(line('Not connected'));
    expect(first(nobody('vault-unavailable'))).toEqual(line('Keychain unavailable'));
    // A tenant is shown as written, not as a Windows access key.
    expect(first(acct('connected', { tenant_id: 'R&D', user_extension: '7' }))).toEqual(
      line('Ext. 7 (R&&D)'),
    );
  });
});
