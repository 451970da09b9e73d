import { useCallback, useEffect, useState } from 'react';
import type { FavouriteContact } from '../../../src-shared/contract';

/**
 * The favourites as core lists them, kept current by `favourites.changed` events, and a star
 * toggle. A refusal (a policy favourite, the limit) comes back as its sentence in `error`.
 */
export function useFavourites() {
  const [favourites, setFavourites] = useState<FavouriteContact[]>([]);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    void window.callbar.favourites.list().then((result) => {
      if (live && result.ok) setFavourites(result.value);
    });
    const unsubscribe = window.callbar.onEvent((event) => {
      if (event.type === 'favourites.changed') setFavourites(event.favourites);
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, []);
  const setStarred = useCallback(async (contactId: number, starred: boolean) => {
    const result = await window.callbar.favourites.set({ contact_id: contactId, starred });
    if (result.ok) {
      setFavourites(result.value);
      setError(undefined);
    } else setError(result.error.message);
  }, []);
  return { favourites, error, setStarred };
}
