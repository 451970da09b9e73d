/**
 * The tray as a pure function of state: which icon it shows, its tooltip, and its menu as plain
 * data. The shell turns the template into an Electron Menu and each item's `action` into a call
 * to the core, so everything a person sees in the tray is tested under Node. Names and numbers
 * from outside are bidi-isolated (names in their own direction, numbers left to right), their
 * controls shown as text. The words are the `shell` catalog's, in the language `t` words in
 * (English unless the shell gives another).
 */
import type {
  AccountStatus,
  Call,
  CallsSnapshot,
  FavouriteContact,
} from '../../../src-shared/contract';
import { englishFor } from '../text/translators';
import { balancedLine, isolatedName, isolatedNumber } from '../text/isolated-text';
import type { Translate } from '../text/said';

export type TrayIcon = 'not-connected' | 'connected' | 'in-call';

/** A number the tray can dial in one click (recent calls, favourites). */
export interface TrayDialEntry {
  label: string;
  number: string;
}

/** The favourites as the tray menu lists them: one click dials the contact's number. */
export function trayFavourites(favourites: readonly FavouriteContact[]): TrayDialEntry[] {
  return favourites.map((contact) => ({ label: contact.display_name, number: contact.number }));
}

export type TrayAction =
  | { kind: 'dial'; number: string }
  | { kind: 'dial-clipboard' }
  | { kind: 'hangup'; callId: string }
  | { kind: 'open' }
  | { kind: 'connect' }
  | { kind: 'quit' };

export type TrayMenuItem =
  | { type: 'separator' }
  | { type: 'normal'; label: string; enabled: boolean; action?: TrayAction }
  | { type: 'submenu'; label: string; enabled: boolean; submenu: TrayMenuItem[] };

/** What the tray says about the account: its state and, when known, whose it is. */
export type TrayAccount = Pick<AccountStatus, 'state' | 'tenant_id' | 'user_extension'>;

export interface TrayState {
  account: TrayAccount;
  calls: CallsSnapshot;
  favourites: readonly TrayDialEntry[];
}

/** How many recent calls the menu lists. */
export const TRAY_RECENT_CALLS = 5;

const LIVE_STATES = new Set<Call['state']>([
  'dialing',
  'calling-you',
  'ringing',
  'connected',
  'in-progress',
]);

/** The calls still going on, newest first. */
export function liveCalls(calls: CallsSnapshot): Call[] {
  return calls.current.filter((call) => LIVE_STATES.has(call.state));
}

export function trayIcon(state: Pick<TrayState, 'account' | 'calls'>): TrayIcon {
  if (liveCalls(state.calls).length > 0) return 'in-call';
  return state.account.state === 'connected' ? 'connected' : 'not-connected';
}

/** Windows cuts a tray tooltip at 127 characters (NOTIFYICONDATA.szTip): say it whole or shorten it. */
export const TRAY_TOOLTIP_MAX = 127;

/** Whose account it is, "Ext. 201 (acme-7f3a)", when the status knows. */
function accountName(account: TrayAccount, t: Translate): string | undefined {
  if (!account.user_extension) return undefined;
  const extension = isolatedNumber(account.user_extension);
  return account.tenant_id
    ? t('tray.extensionOfTenant', { extension, tenant: isolatedName(account.tenant_id) })
    : t('tray.extension', { extension });
}

/** One line naming the account and its state: the tray menu's first item and the tooltip. */
export function trayAccountLine(account: TrayAccount, t: Translate = englishFor('shell')): string {
  const who = accountName(account, t);
  switch (account.state) {
    case 'connected':
      return who ?? t('tray.connected');
    case 'offline':
      return who ? t('tray.offlineWho', { who }) : t('tray.offline');
    case 'needs-activation':
      return who ? t('tray.sessionEndedWho', { who }) : t('tray.sessionEnded');
    case 'activating':
      return t('tray.activating');
    case 'vault-unavailable':
      return t('tray.vaultUnavailable');
    case 'not-connected':
      return t('tray.notConnected');
  }
}

/** Who the call is with: the name, isolated, or else the number, left to right. */
function partyName(call: Call): string {
  const { name, display } = call.party;
  return name ? isolatedName(name) : isolatedNumber(display);
}

export function trayTooltip(
  state: Pick<TrayState, 'account' | 'calls'>,
  t: Translate = englishFor('shell'),
): string {
  const [live] = liveCalls(state.calls);
  const text = live
    ? t('tray.tooltipInCall', { party: partyName(live) })
    : t('tray.tooltip', { line: trayAccountLine(state.account, t) });
  if (text.length <= TRAY_TOOLTIP_MAX) return text;
  // Cut short, an isolate open where it is cut is closed after the ellipsis (room kept for it).
  const cut = balancedLine(`${text.slice(0, TRAY_TOOLTIP_MAX - 1)}…`);
  return cut.length <= TRAY_TOOLTIP_MAX
    ? cut
    : balancedLine(`${text.slice(0, TRAY_TOOLTIP_MAX - 2)}…`);
}

/** Menu labels treat "&" as an access-key marker on Windows; a name must show as written. */
function menuText(text: string): string {
  return text.replace(/&/g, '&&');
}

function recentEntry(call: Call): TrayMenuItem {
  const arrow = call.direction === 'incoming' ? '↙' : '↗';
  const label = menuText(`${arrow} ${partyName(call)}`);
  const number = call.party.number;
  return number
    ? { type: 'normal', label, enabled: true, action: { kind: 'dial', number } }
    : { type: 'normal', label, enabled: false };
}

/** The tray menu for `state`, top to bottom, in `t`'s language. */
export function trayMenu(state: TrayState, t: Translate = englishFor('shell')): TrayMenuItem[] {
  const { account } = state;
  const canDial = account.state === 'connected';
  // Whose tray this is, first and not clickable (two profiles can run side by side).
  const items: TrayMenuItem[] = [
    { type: 'normal', label: menuText(trayAccountLine(account, t)), enabled: false },
    { type: 'separator' },
  ];
  const hangups = items.length;
  for (const call of liveCalls(state.calls)) {
    items.push({
      type: 'normal',
      label: menuText(t('tray.hangUp', { party: partyName(call) })),
      enabled: true,
      action: { kind: 'hangup', callId: call.id },
    });
  }
  if (items.length > hangups) items.push({ type: 'separator' });

  // Favourites first: the people called most on purpose.
  const favourites = state.favourites.map((entry): TrayMenuItem => ({
    type: 'normal',
    label: menuText(isolatedName(entry.label)),
    enabled: true,
    action: { kind: 'dial', number: entry.number },
  }));
  items.push({
    type: 'submenu',
    label: t('tray.favourites'),
    enabled: canDial && favourites.length > 0,
    submenu: favourites,
  });
  const recent = state.calls.recent.slice(0, TRAY_RECENT_CALLS).map(recentEntry);
  items.push({
    type: 'submenu',
    label: t('tray.recentCalls'),
    enabled: canDial && recent.length > 0,
    submenu: recent,
  });
  items.push({
    type: 'normal',
    label: t('tray.dialClipboard'),
    enabled: canDial,
    action: { kind: 'dial-clipboard' },
  });
  items.push({ type: 'separator' });
  if (account.state === 'not-connected' || account.state === 'needs-activation') {
    items.push({
      type: 'normal',
      label: t(account.state === 'needs-activation' ? 'tray.reconnect' : 'tray.connect'),
      enabled: true,
      action: { kind: 'connect' },
    });
  }
  items.push({ type: 'normal', label: t('tray.open'), enabled: true, action: { kind: 'open' } });
  items.push({ type: 'normal', label: t('tray.quit'), enabled: true, action: { kind: 'quit' } });
  return items;
}
