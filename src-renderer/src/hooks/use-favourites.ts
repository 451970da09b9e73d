import { useCallback, useState } from 'react';
import { useAppStore } from '../store/app-store';

/**
 * The favourites from the store (no call to core: the store keeps them current) and a star
 * toggle. A refusal (a policy favourite, the limit) comes back as its sentence in `error`, shown
 * by the component that asked.
 */
export function useFavourites() {
  const favourites = useAppStore((state) => state.favourites);
  const star = useAppStore((state) => state.setStarred);
  const [error, setError] = useState<string | undefined>();
  const setStarred = useCallback(
    async (contactId: number, starred: boolean) => {
      setError((await star(contactId, starred))?.message);
    },
    [star],
  );
  return { favourites, error, setStarred };
}
