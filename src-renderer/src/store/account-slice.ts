import type { AccountStatus, AppInfo, ErrorInfo, Result } from '../../../src-shared/contract';
import type { SliceCreator } from './slice';

/** Who Callbar is connected as, what the app is, and the account actions. */
export interface AccountSlice {
  info: AppInfo | undefined;
  infoError: ErrorInfo | undefined;
  account: AccountStatus | undefined;
  /** The last account action's failure, shown next to the account controls. */
  accountError: ErrorInfo | undefined;
  /**
   * The session ended because the portal's Unsubscribe reached Callbar: an account.changed event
   * took a connected account to not-connected without the user asking this window to forget it.
   */
  unsubscribedInPortal: boolean;
  /** An account action the person asked for is on its way (its buttons wait for it). */
  accountBusy: boolean;
  loadInfo: () => Promise<void>;
  /**
   * Reads the account's status (the window's start): not an action, so no button waits for it,
   * and its answer is dropped when a newer status (an event, an action's) came first.
   */
  loadAccount: () => Promise<void>;
  /** The person's "Try again" (the keychain): the status read again, its button waiting. */
  recheckAccount: () => Promise<void>;
  connect: () => Promise<void>;
  cancelConnect: () => Promise<void>;
  forget: () => Promise<void>;
  /** The user saw that Callbar is connected to a different account than before. */
  acknowledgeSwitch: () => Promise<void>;
  applyAccountEvent: (status: AccountStatus) => void;
}

/** States in which this computer holds a session. */
const HAS_SESSION: ReadonlySet<AccountStatus['state']> = new Set(['connected', 'offline']);

const CONNECTED_BEFORE_KEY = 'callbar.connected-before';

/**
 * Whether this window's Callbar has been connected before (kept in its storage, like the theme):
 * not connected, it then says "Connect…" rather than welcoming a first run.
 */
export function connectedBefore(): boolean {
  return globalThis.localStorage?.getItem(CONNECTED_BEFORE_KEY) === 'yes';
}

function remember(status: AccountStatus): AccountStatus {
  if (HAS_SESSION.has(status.state)) globalThis.localStorage?.setItem(CONNECTED_BEFORE_KEY, 'yes');
  return status;
}

export const createAccountSlice: SliceCreator<AccountSlice> = (set, get) => {
  /** How many statuses the window has taken in: a read answered after a newer one is stale. */
  let statusesTaken = 0;
  const take = (status: AccountStatus) => {
    statusesTaken += 1;
    return remember(status);
  };
  /** What a status answer changes: the account, or the error shown next to its controls. */
  const answered = (result: Result<AccountStatus>) =>
    result.ok
      ? { account: take(result.value), accountError: undefined }
      : { accountError: result.error };
  /** An action the person asked for: its buttons wait for it (one press, one action). */
  const run = async (action: () => Promise<Result<AccountStatus>>) => {
    set({ accountBusy: true });
    const result = await action();
    set({ ...answered(result), accountBusy: false });
  };
  return {
    info: undefined,
    infoError: undefined,
    account: undefined,
    accountError: undefined,
    unsubscribedInPortal: false,
    accountBusy: false,
    loadInfo: async () => {
      const result = await window.callbar.app.info();
      if (result.ok) set({ info: result.value, infoError: undefined });
      else set({ infoError: result.error });
    },
    loadAccount: async () => {
      // Not `run`: when the start's read made the buttons wait, a status event that came before
      // its answer showed Connect, and a press of it was dropped.
      const taken = statusesTaken;
      const result = await window.callbar.account.status();
      if (taken === statusesTaken) set(answered(result));
    },
    recheckAccount: () => run(() => window.callbar.account.status()),
    connect: async () => {
      set({ unsubscribedInPortal: false });
      await run(() => window.callbar.account.connect());
    },
    cancelConnect: () => run(() => window.callbar.account.cancelConnect()),
    forget: async () => {
      set({ unsubscribedInPortal: false });
      await run(() => window.callbar.account.forget());
    },
    acknowledgeSwitch: () => run(() => window.callbar.account.acknowledgeSwitch()),
    applyAccountEvent: (status) => {
      const before = get().account?.state;
      const unsubscribed =
        before !== undefined &&
        HAS_SESSION.has(before) &&
        status.state === 'not-connected' &&
        !get().accountBusy;
      set({
        account: take(status),
        accountError: undefined,
        unsubscribedInPortal:
          unsubscribed || (get().unsubscribedInPortal && status.state === 'not-connected'),
      });
    },
  };
};
