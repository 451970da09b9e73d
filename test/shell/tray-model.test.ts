import { describe, expect, it } from 'vitest';
import {
  TRAY_RECENT_CALLS,
  trayIcon,
  trayMenu,
  trayTooltip,
  type TrayMenuItem,
} from '../../src-main/core/desktop/tray-model';
import { call, snapshot } from './fixtures';

const labels = (items: TrayMenuItem[]) =>
  items.map((item) => (item.type === 'separator' ? '—' : item.label));
const find = (items: TrayMenuItem[], label: string) =>
  items.find((item) => item.type !== 'separator' && item.label === label);

describe('tray icon and tooltip', () => {
  it('reflects not connected / connected / in a call', () => {
    expect(trayIcon({ account: 'not-connected', calls: snapshot() })).toBe('not-connected');
    expect(trayIcon({ account: 'offline', calls: snapshot() })).toBe('not-connected');
    expect(trayIcon({ account: 'needs-activation', calls: snapshot() })).toBe('not-connected');
    expect(trayIcon({ account: 'connected', calls: snapshot() })).toBe('connected');
    const live = snapshot({ current: [call({ state: 'connected' })] });
    expect(trayIcon({ account: 'connected', calls: live })).toBe('in-call');
    // A call that ended but is still listed as current does not count.
    const over = snapshot({ current: [call({ state: 'ended' })] });
    expect(trayIcon({ account: 'connected', calls: over })).toBe('connected');
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
    expect(trayTooltip({ account: 'connected', calls: live })).toBe(
      'Callbar — in a call with Anna',
    );
    expect(trayTooltip({ account: 'needs-activation', calls: snapshot() })).toBe(
      'Callbar — reconnect needed',
    );
  });
});

describe('tray menu', () => {
  it('while connected: recent calls, favourites, dial clipboard, open, quit', () => {
    const menu = trayMenu({
      account: 'connected',
      calls: snapshot(),
      favourites: [{ label: 'Reception', number: '100' }],
    });
    expect(labels(menu)).toEqual([
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
    const menu = trayMenu({ account: 'connected', calls: snapshot({ recent }), favourites: [] });
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
    const menu = trayMenu({ account: 'connected', calls: snapshot({ recent }), favourites: [] });
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
      account: 'connected',
      calls: snapshot({ current: [live] }),
      favourites: [],
    });
    expect(menu[0]).toEqual({
      type: 'normal',
      label: 'Hang up Anna',
      enabled: true,
      action: { kind: 'hangup', callId: live.id },
    });
    expect(menu[1]).toEqual({ type: 'separator' });
    expect(
      labels(trayMenu({ account: 'connected', calls: snapshot(), favourites: [] })),
    ).not.toContain('Hang up Anna');
  });

  it('when not connected, dialing is disabled and Connect is offered', () => {
    const recent = [call({ state: 'ended' })];
    for (const account of ['not-connected', 'needs-activation'] as const) {
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
      expect(connect, account).toBeDefined();
    }
    const offline = trayMenu({ account: 'offline', calls: snapshot(), favourites: [] });
    expect(labels(offline)).toContain('Open Callbar');
    expect(labels(offline)).toContain('Quit Callbar');
  });
});
