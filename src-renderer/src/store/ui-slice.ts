import type { CallbarEvent } from '../../../src-preload/contract';
import type { SliceCreator } from './slice';

export type Notice = Extract<CallbarEvent, { type: 'app.notice' }>;
export type View = 'main' | 'about' | 'phonebooks' | 'settings';
export type ThemeChoice = 'system' | 'light' | 'dark';

const THEME_KEY = 'callbar.theme';

function storedTheme(): ThemeChoice {
  const value = globalThis.localStorage?.getItem(THEME_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** What the window shows: the view, the theme, open dialogs and passing notices. */
export interface UiSlice {
  view: View;
  theme: ThemeChoice;
  confirmingDisconnect: boolean;
  /** Counts requests to put the focus in the search box (the global shortcut opened the window). */
  searchFocusRequests: number;
  notices: Notice[];
  show: (view: View) => void;
  setTheme: (theme: ThemeChoice) => void;
  setConfirmingDisconnect: (open: boolean) => void;
  requestSearchFocus: () => void;
  addNotice: (notice: Notice) => void;
  dismissNotice: (index: number) => void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set) => ({
  view: 'main',
  theme: storedTheme(),
  confirmingDisconnect: false,
  searchFocusRequests: 0,
  notices: [],
  show: (view) => set({ view }),
  setTheme: (theme) => {
    if (theme === 'system') globalThis.localStorage?.removeItem(THEME_KEY);
    else globalThis.localStorage?.setItem(THEME_KEY, theme);
    set({ theme });
  },
  setConfirmingDisconnect: (open) => set({ confirmingDisconnect: open }),
  requestSearchFocus: () =>
    set((state) => ({ view: 'main', searchFocusRequests: state.searchFocusRequests + 1 })),
  addNotice: (notice) => set((state) => ({ notices: [...state.notices.slice(-2), notice] })),
  dismissNotice: (index) =>
    set((state) => ({ notices: state.notices.filter((_, at) => at !== index) })),
});
