/**
 * The tray menu, its tooltip, the notifications and the shell's dial notices in German: the same
 * models as in English (test/shell/), given the `shell` words of the German catalog.
 */
import { describe, expect, it } from 'vitest';
import type { AccountState, CallbarEvent } from '../../../../src-shared/contract';
import { NotificationPlanner } from '../../../../src-main/core/desktop/notification-planner';
import { planClipboardDial } from '../../../../src-main/core/desktop/shell-actions';
import {
  trayMenu,
  trayTooltip,
  type TrayAccount,
  type TrayMenuItem,
} from '../../../../src-main/core/desktop/tray-model';
import { translatorFor } from '../../../../src-main/core/text/translators';
import { call, snapshot } from '../../../support/desktop-fixtures';

const de = translatorFor('de', 'shell');
const name = (text: string) => `\u2068${text}\u2069`;
const num = (text: string) => `\u2066${text}\u2069`;
const acct = (state: AccountState): TrayAccount => ({
  state,
  tenant_id: 'acme-7f3a',
  user_extension: '201',
});
const labels = (items: TrayMenuItem[]) =>
  items.map((item) => (item.type === 'separator' ? '—' : item.label));

describe('tray in German', () => {
  it('names the account, the calls to hang up and every action in German', () => {
    const live = call({
      state: 'connected',
      party: { number: '+4930123456', display: '+49 30 123456', name: 'Anna' },
    });
    const menu = trayMenu(
      {
        account: acct('connected'),
        calls: snapshot({ current: [live] }),
        favourites: [{ label: 'Bernd', number: '+4930999' }],
      },
      de,
    );
    expect(labels(menu)).toEqual([
      `Nebenstelle ${num('201')} (${name('acme-7f3a')})`,
      '—',
      `Gespräch mit ${name('Anna')} beenden`,
      '—',
      'Favoriten',
      'Letzte Anrufe',
      'Zwischenablage wählen',
      '—',
      'Callbar öffnen',
      'Callbar beenden',
    ]);
    expect(
      trayTooltip({ account: acct('connected'), calls: snapshot({ current: [live] }) }, de),
    ).toBe(`Callbar — im Gespräch mit ${name('Anna')}`);
  });

  it('says every account state in German', () => {
    const line = (state: AccountState) =>
      labels(trayMenu({ account: acct(state), calls: snapshot(), favourites: [] }, de))[0];
    expect(line('offline')).toBe(`Offline · Nebenstelle ${num('201')} (${name('acme-7f3a')})`);
    expect(line('needs-activation')).toBe(
      `Sitzung beendet — Nebenstelle ${num('201')} (${name('acme-7f3a')}) neu verbinden`,
    );
    expect(line('activating')).toBe('Verbindet…');
    expect(line('vault-unavailable')).toBe('Schlüsselbund nicht verfügbar');
    expect(line('not-connected')).toBe('Nicht verbunden');
    const reconnect = labels(
      trayMenu({ account: acct('needs-activation'), calls: snapshot(), favourites: [] }, de),
    );
    expect(reconnect).toContain('Callbar neu verbinden…');
    expect(trayTooltip({ account: { state: 'not-connected' }, calls: snapshot() }, de)).toBe(
      'Callbar — Nicht verbunden',
    );
  });
});

describe('notifications in German', () => {
  const callsChanged = (calls: ReturnType<typeof snapshot>): CallbarEvent => ({
    type: 'calls.changed',
    calls,
  });

  it('an incoming call, a failed call, an expired session', () => {
    const planner = new NotificationPlanner(() => de);
    const incoming = call({
      state: 'ringing',
      direction: 'incoming',
      party: {
        number: '+4930123456',
        display: '+49 30 123456',
        name: 'Anna Meier',
        company: 'Acme',
      },
    });
    expect(planner.plan(callsChanged(snapshot({ current: [incoming] })))).toEqual([
      {
        title: 'Eingehender Anruf',
        body: `${name('Anna Meier')} (${name('Acme')}) — ${num('+49 30 123456')}`,
        onClick: 'open',
      },
    ]);
    const failed = call({ state: 'failed', party: { number: '+4930555', display: '+49 30 555' } });
    expect(planner.plan(callsChanged(snapshot({ recent: [failed] })))).toEqual([
      {
        title: 'Anruf fehlgeschlagen',
        body: `${num('+49 30 555')} konnte nicht angerufen werden: Die Telefonanlage hat den Anruf nicht angenommen`,
        onClick: 'open',
      },
    ]);
    planner.plan({ type: 'account.changed', status: { state: 'connected' } });
    expect(
      planner.plan({ type: 'account.changed', status: { state: 'needs-activation' } }),
    ).toEqual([
      {
        title: 'Callbar neu verbinden',
        body: 'Ihre Sitzung mit der Telefonanlage ist abgelaufen. Klicken Sie, um Callbar wieder zu verbinden.',
        onClick: 'connect',
      },
    ]);
  });

  it('Dial clipboard with nothing to dial says so in German', async () => {
    const router = { invoke: () => Promise.reject(new Error('not asked')) };
    expect(await planClipboardDial(router, '   \n', de)).toEqual({
      kind: 'error',
      notice: {
        title: 'Nichts zu wählen',
        body: 'Die Zwischenablage enthält keine Rufnummer. Kopieren Sie eine Nummer und wählen Sie dann erneut „Zwischenablage wählen“.',
      },
    });
  });
});
