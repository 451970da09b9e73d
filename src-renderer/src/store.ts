import { create } from 'zustand';
import type {
  AccountStatus,
  AppInfo,
  CallbarEvent,
  ErrorInfo,
  Result,
} from '../../src-preload/contract';

type Notice = Extract<CallbarEvent, { type: 'app.notice' }>;

/** The renderer's state: only what core has told it, never a token or a raw platform response. */
interface AppState {
  info: AppInfo | undefined;
  infoError: ErrorInfo | undefined;
  account: AccountStatus | undefined;
  /** The last account action's failure, shown next to the account controls. */
  accountError: ErrorInfo | undefined;
  notices: Notice[];
  loadInfo: () => Promise<void>;
  loadAccount: () => Promise<void>;
  connect: () => Promise<void>;
  cancelConnect: () => Promise<void>;
  forget: () => Promise<void>;
  receive: (event: CallbarEvent) => void;
}

export const useAppStore = create<AppState>()((set) => {
  const applyAccount = (result: Result<AccountStatus>) => {
    if (result.ok) set({ account: result.value, accountError: undefined });
    else set({ accountError: result.error });
  };
  return {
    info: undefined,
    infoError: undefined,
    account: undefined,
    accountError: undefined,
    notices: [],
    loadInfo: async () => {
      const result = await window.callbar.app.info();
      if (result.ok) set({ info: result.value, infoError: undefined });
      else set({ infoError: result.error });
    },
    loadAccount: async () => applyAccount(await window.callbar.account.status()),
    connect: async () => applyAccount(await window.callbar.account.connect()),
    cancelConnect: async () => applyAccount(await window.callbar.account.cancelConnect()),
    forget: async () => applyAccount(await window.callbar.account.forget()),
    receive: (event) => {
      switch (event.type) {
        case 'app.notice':
          set((state) => ({ notices: [...state.notices.slice(-4), event] }));
          break;
        case 'account.changed':
          set({ account: event.status, accountError: undefined });
          break;
        case 'directory.changed':
        case 'calls.changed':
        case 'app.focusSearch':
          break;
      }
    },
  };
});
