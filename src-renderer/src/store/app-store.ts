import { create } from 'zustand';
import type { CallbarEvent } from '../../../src-shared/contract';
import { createAccountSlice, type AccountSlice } from './account-slice';
import { createCallsSlice, type CallsSlice } from './calls-slice';
import { createDirectorySlice, indexChanged, type DirectorySlice } from './directory-slice';
import { createFavouritesSlice, type FavouritesSlice } from './favourites-slice';
import { createUiSlice, type UiSlice } from './ui-slice';

/**
 * The renderer's one store, in slices (account, directory, calls, favourites, ui). It holds only
 * what core said, never a token or a raw platform response; everything derived is computed by
 * selectors.
 */
export type AppState = AccountSlice &
  DirectorySlice &
  CallsSlice &
  FavouritesSlice &
  UiSlice & {
    /** Loads everything once and follows core's events; returns the unsubscribe. */
    start: () => () => void;
    receive: (event: CallbarEvent) => void;
  };

export const useAppStore = create<AppState>()((...args) => {
  const [, get, store] = args;
  return {
    ...createAccountSlice(...args),
    ...createDirectorySlice(...args),
    ...createCallsSlice(...args),
    ...createFavouritesSlice(...args),
    ...createUiSlice(...args),
    start: () => {
      const state = get();
      const unsubscribe = window.callbar.onEvent((event) => get().receive(event));
      // A new language: every sentence core said that the window holds (why each call ended,
      // the account's message, why the last sync did not complete) is asked for in it; the
      // settings' (the policies' problems) come with the settings read that brought the language.
      const unwatch = store.subscribe((now, before) => {
        if (now.language === before.language) return;
        void now.rewordCalls();
        void now.loadAccount();
        void now.loadDirectory();
      });
      void state.loadSettings();
      void state.loadInfo();
      void state.loadAccount();
      void state.loadDirectory();
      void state.loadCalls();
      void state.loadFavourites();
      return () => {
        unwatch();
        unsubscribe();
      };
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
        case 'account.changed': {
          const before = state.account?.state;
          state.applyAccountEvent(event.status);
          if (event.status.state !== before) void state.loadFavourites();
          break;
        }
        case 'directory.changed': {
          // A star is listed only while its contact is in the index: a new index may list others.
          const before = state.directory;
          state.applyDirectoryEvent(event.status);
          if (indexChanged(before, event.status)) void state.loadFavourites();
          break;
        }
        case 'calls.changed':
          state.applyCallsEvent(event.calls);
          break;
        case 'settings.changed':
          // The language is live: a save anywhere (another window, Settings) speaks it here too.
          void state.loadSettings();
          // So is the region: the numbers shown are shown again in it.
          void state.loadFavourites();
          if (state.query.trim() !== '') void state.setQuery(state.query);
          break;
        case 'favourites.changed':
          state.applyFavouritesEvent(event.favourites);
          break;
        case 'imports.changed':
          // The import dialog follows these events itself.
          break;
      }
    },
  };
});
