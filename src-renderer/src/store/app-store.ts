import { create } from 'zustand';
import type { CallbarEvent } from '../../../src-shared/contract';
import { createAccountSlice, type AccountSlice } from './account-slice';
import { createCallsSlice, type CallsSlice } from './calls-slice';
import { createDirectorySlice, type DirectorySlice } from './directory-slice';
import { createUiSlice, type UiSlice } from './ui-slice';

/**
 * The renderer's one store, in slices (account, directory, calls, ui). It holds only what core
 * said, never a token or a raw platform response; everything derived is computed by selectors.
 */
export type AppState = AccountSlice &
  DirectorySlice &
  CallsSlice &
  UiSlice & {
    /** Loads everything once and follows core's events; returns the unsubscribe. */
    start: () => () => void;
    receive: (event: CallbarEvent) => void;
  };

export const useAppStore = create<AppState>()((...args) => {
  const [, get] = args;
  return {
    ...createAccountSlice(...args),
    ...createDirectorySlice(...args),
    ...createCallsSlice(...args),
    ...createUiSlice(...args),
    start: () => {
      const state = get();
      const unsubscribe = window.callbar.onEvent((event) => get().receive(event));
      void state.loadLanguage();
      void state.loadInfo();
      void state.loadAccount();
      void state.loadDirectory();
      void state.loadCalls();
      return unsubscribe;
    },
    receive: (event) => {
      const state = get();
      switch (event.type) {
        case 'app.notice':
          state.addNotice(event);
          break;
        case 'app.focusSearch':
          state.requestSearchFocus();
          void state.setQuery(event.query);
          break;
        case 'account.changed':
          state.applyAccountEvent(event.status);
          break;
        case 'directory.changed':
          state.applyDirectoryEvent(event.status);
          break;
        case 'calls.changed':
          state.applyCallsEvent(event.calls);
          break;
        case 'settings.changed':
          // The language is live: a save anywhere (another window, Settings) speaks it here too.
          void state.loadLanguage();
          break;
        case 'favourites.changed':
        case 'imports.changed':
          // The views that show these follow the events themselves (use-favourites, ImportDialog).
          break;
      }
    },
  };
});
