/**
 * The tray as a pure function of state: which icon it shows, its tooltip, and its menu as plain
 * data. The shell turns the template into an Electron Menu and each item's `action` into a call
 * to the core, so everything a person sees in the tray is tested under Node.
 */
import type { AccountState, Call, CallsSnapshot } from '../../../src-preload/contract';

export type TrayIcon = 'not-connected' | 'connected' | 'in-call';

/** A number the tray can dial in one click (recent calls, favourites). */
export interface TrayDialEntry {
  label: string;
  number: string;
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

export interface TrayState {
  account: AccountState;
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
  return state.account === 'connected' ? 'connected' : 'not-connected';
}

const ACCOUNT_WORDS: Record<AccountState, string> = {
  'not-connected': 'not connected',
  activating: 'connecting…',
  connected: 'connected',
  'needs-activation': 'reconnect needed',
  offline: 'offline',
  'vault-unavailable': 'keychain unavailable',
};

function partyName(call: Call): string {
  return call.party.name ?? call.party.display;
}

export function trayTooltip(state: Pick<TrayState, 'account' | 'calls'>): string {
  const [live] = liveCalls(state.calls);
  if (live) return `Callbar — in a call with ${partyName(live)}`;
  return `Callbar — ${ACCOUNT_WORDS[state.account]}`;
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

/** The tray menu for `state`, top to bottom. */
export function trayMenu(state: TrayState): TrayMenuItem[] {
  const canDial = state.account === 'connected';
  const items: TrayMenuItem[] = [];
  for (const call of liveCalls(state.calls)) {
    items.push({
      type: 'normal',
      label: menuText(`Hang up ${partyName(call)}`),
      enabled: true,
      action: { kind: 'hangup', callId: call.id },
    });
  }
  if (items.length > 0) items.push({ type: 'separator' });

  const recent = state.calls.recent.slice(0, TRAY_RECENT_CALLS).map(recentEntry);
  items.push({
    type: 'submenu',
    label: 'Recent calls',
    enabled: canDial && recent.length > 0,
    submenu: recent,
  });
  const favourites = state.favourites.map((entry): TrayMenuItem => ({
    type: 'normal',
    label: menuText(entry.label),
    enabled: true,
    action: { kind: 'dial', number: entry.number },
  }));
  items.push({
    type: 'submenu',
    label: 'Favourites',
    enabled: canDial && favourites.length > 0,
    submenu: favourites,
  });
  items.push({
    type: 'normal',
    label: 'Dial clipboard',
    enabled: canDial,
    action: { kind: 'dial-clipboard' },
  });
  items.push({ type: 'separator' });
  if (state.account === 'not-connected' || state.account === 'needs-activation') {
    items.push({
      type: 'normal',
      label: state.account === 'needs-activation' ? 'Reconnect Callbar…' : 'Connect Callbar…',
      enabled: true,
      action: { kind: 'connect' },
    });
  }
  items.push({ type: 'normal', label: 'Open Callbar', enabled: true, action: { kind: 'open' } });
  items.push({ type: 'normal', label: 'Quit Callbar', enabled: true, action: { kind: 'quit' } });
  return items;
}
