/**
 * Which desktop notifications the event stream calls for: an incoming call (the caller as the
 * directory knows them), a dial that failed (with the reason), a session that expired
 * ("Reconnect Callbar"), and a connection to a different account than before (the window may be
 * hidden in the tray when someone else completes a connect link). Each is shown once; the planner remembers only the calls the latest
 * snapshot still holds, so it stays small however long Callbar runs.
 *
 * Every notification is plain text (`plainNotification`): names isolated in their own direction,
 * numbers left to right, controls shown as text, and markup escaped where the platform's
 * notification server reads the body as markup (Linux). The words are the `shell` catalog's, in
 * the planner's language.
 */
import type {
  AccountState,
  AccountStatus,
  Call,
  CallbarEvent,
  CallsSnapshot,
} from '../../../src-shared/contract';
import { sayAgain, translatorFor } from '../text/translators';
import { balancedLine, isolatedName, isolatedNumber } from '../text/isolated-text';
import type { Translate } from '../text/said';

export interface PlannedNotification {
  title: string;
  body: string;
  /** What clicking it does. */
  onClick: 'open' | 'connect';
}

function caller(call: Call, t: Translate): string {
  const { name, company, display } = call.party;
  const number = isolatedNumber(display);
  if (!name) return number;
  return company
    ? t('notification.callerWithCompany', {
        name: isolatedName(name),
        company: isolatedName(company),
        number,
      })
    : t('notification.caller', { name: isolatedName(name), number });
}

/** Who a call is with, in a sentence: the name, or else the number. */
function party(call: Call): string {
  const { name, display } = call.party;
  return name ? isolatedName(name) : isolatedNumber(display);
}

/**
 * `notice` as `platform`'s notifications show it: each line kept one line, controls and stray
 * bidi characters shown as text (the isolates put around names and numbers kept, balanced), and on
 * Linux the body's `&`, `<` and `>` escaped: notification servers there (GNOME Shell, KDE Plasma,
 * xfce4-notifyd, dunst, mako) read the body as markup, where a name's `<a href>` would become a
 * link and a lone `&` can blank the whole body. Titles are plain text everywhere, as are bodies
 * on macOS and Windows.
 */
export function plainNotification<T extends { title: string; body: string }>(
  notice: T,
  platform: NodeJS.Platform,
): T {
  const body = balancedLine(notice.body);
  return {
    ...notice,
    title: balancedLine(notice.title),
    body: platform === 'linux' ? escapeMarkup(body) : body,
  };
}

const MARKUP: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

function escapeMarkup(text: string): string {
  return text.replace(/[&<>]/g, (character) => MARKUP[character]!);
}

export class NotificationPlanner {
  #announcedIncoming = new Set<string>();
  #announcedFailed = new Set<string>();
  #account: AccountState | undefined;
  /** The account switch last announced (its sentence), so each is announced once. */
  #announcedSwitch: string | undefined;
  readonly #words: () => Translate;

  /**
   * `words`: the `shell` words in the user's language as it is now (English by default), so a
   * language chosen in the settings applies to the next notification.
   */
  constructor(words: () => Translate = () => translatorFor('en', 'shell')) {
    this.#words = words;
  }

  /** Marks what is already there at start-up as known, so only news is announced. */
  seed(state: {
    account?: AccountState;
    calls?: CallsSnapshot;
    /** The status's account switch sentence at start-up (the window shows it). */
    accountSwitch?: string | undefined;
  }): void {
    if (state.account) this.#account = state.account;
    this.#announcedSwitch = state.accountSwitch;
    for (const call of [...(state.calls?.current ?? []), ...(state.calls?.recent ?? [])]) {
      this.#announcedIncoming.add(call.id);
      this.#announcedFailed.add(call.id);
    }
  }

  /** The notifications `event` calls for (usually none). */
  plan(event: CallbarEvent): PlannedNotification[] {
    if (event.type === 'account.changed') {
      return [...this.#accountChanged(event.status.state), ...this.#accountSwitched(event.status)];
    }
    if (event.type === 'calls.changed') return this.#callsChanged(event.calls);
    return [];
  }

  #accountChanged(state: AccountState): PlannedNotification[] {
    const previous = this.#account;
    this.#account = state;
    if (state !== 'needs-activation' || previous === 'needs-activation') return [];
    const t = this.#words();
    return [
      {
        title: t('notification.reconnectTitle'),
        body: t('notification.reconnectBody'),
        onClick: 'connect',
      },
    ];
  }

  #accountSwitched(status: AccountStatus): PlannedNotification[] {
    const change = status.account_switch?.message;
    if (!change || change === this.#announcedSwitch) return [];
    this.#announcedSwitch = change;
    const t = this.#words();
    return [{ title: t('notification.switchedTitle'), body: sayAgain(t, change), onClick: 'open' }];
  }

  #callsChanged(calls: CallsSnapshot): PlannedNotification[] {
    const all = [...calls.current, ...calls.recent];
    const planned: PlannedNotification[] = [];
    const t = this.#words();
    for (const call of calls.current) {
      if (call.direction !== 'incoming' || this.#announcedIncoming.has(call.id)) continue;
      this.#announcedIncoming.add(call.id);
      if (call.state === 'ended' || call.state === 'failed') continue;
      planned.push({
        title: t('notification.incomingTitle'),
        body: caller(call, t),
        onClick: 'open',
      });
    }
    for (const call of all) {
      if (call.state !== 'failed' || this.#announcedFailed.has(call.id)) continue;
      this.#announcedFailed.add(call.id);
      const reason = call.reason ?? t('notification.notAccepted');
      planned.push({
        title: t('notification.failedTitle'),
        body: t('notification.failedBody', { party: party(call), reason }),
        onClick: 'open',
      });
    }
    const present = new Set(all.map((call) => call.id));
    for (const set of [this.#announcedIncoming, this.#announcedFailed]) {
      for (const id of set) if (!present.has(id)) set.delete(id);
    }
    return planned;
  }
}
