import { create } from 'zustand';
import type { AppInfo, CallbarEvent, ErrorInfo } from '../../src-preload/contract';

/** The renderer's state: only what core has told it, never a token or a raw platform response. */
interface AppState {
  info: AppInfo | undefined;
  infoError: ErrorInfo | undefined;
  notices: Extract<CallbarEvent, { type: 'app.notice' }>[];
  loadInfo: () => Promise<void>;
  receive: (event: CallbarEvent) => void;
}

export const useAppStore = create<AppState>()((set) => ({
  info: undefined,
  infoError: undefined,
  notices: [],
  loadInfo: async () => {
    const result = await window.callbar.app.info();
    if (result.ok) set({ info: result.value, infoError: undefined });
    else set({ infoError: result.error });
  },
  receive: (event) => {
    switch (event.type) {
      case 'app.notice':
        set((state) => ({ notices: [...state.notices.slice(-4), event] }));
        break;
    }
  },
}));
