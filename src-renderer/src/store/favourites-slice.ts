import type { ErrorInfo, FavouriteContact } from '../../../src-shared/contract';
import type { SliceCreator } from './slice';

/**
 * The favourites as core lists them, held once for the whole window: loaded at start, replaced
 * by `favourites.changed` events and by this window's own stars, and read again when the index
 * or the account changes (a star is listed only while its contact is in the directory). The star
 * toggles and the favourites list read them here, so mounting one asks core nothing.
 */
export interface FavouritesSlice {
  favourites: FavouriteContact[];
  loadFavourites: () => Promise<void>;
  /** Stars or unstars a contact; a refusal (a policy favourite, the limit) is returned. */
  setStarred: (contactId: number, starred: boolean) => Promise<ErrorInfo | undefined>;
  applyFavouritesEvent: (favourites: FavouriteContact[]) => void;
}

export const createFavouritesSlice: SliceCreator<FavouritesSlice> = (set) => {
  // Each list asked for, star answered and event counts: a list is shown only if nothing newer
  // came while it was on its way (a late answer never replaces a newer star, event or list).
  let version = 0;
  const replace = (favourites: FavouriteContact[]) => {
    version += 1;
    set({ favourites });
  };
  return {
    favourites: [],
    loadFavourites: async () => {
      const asked = ++version;
      const result = await window.callbar.favourites.list();
      if (result.ok && asked === version) set({ favourites: result.value });
    },
    setStarred: async (contactId, starred) => {
      const result = await window.callbar.favourites.set({ contact_id: contactId, starred });
      if (!result.ok) return result.error;
      replace(result.value);
      return undefined;
    },
    applyFavouritesEvent: replace,
  };
};
