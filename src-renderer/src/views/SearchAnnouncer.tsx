import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { FIRST_LIMIT } from '../store/directory-slice';

/**
 * How long the answer must stay the same before it is said: a pause in the typing. Each key
 * brings a new answer; saying each ("No contact matches “z”", “zq”, “zqx”…) queued a sentence per
 * key behind the key's own echo, every one stale before it was read.
 */
export const SEARCH_SETTLED_MS = 1000;

/**
 * What the search found, said to a screen reader once the typing settles: "5 contacts found",
 * "No contacts found", or that the contacts are still loading. The list itself says which row is
 * highlighted (aria-activedescendant on the box), but only when that changes: a new answer whose
 * first row is highlighted again was silent, so the count was never heard. Said once per answer
 * that differs from the last said; a partial answer ("50 or more") is not said again when the list
 * loads the rest. Shown while something is searched (SearchView); the visible sentences beside the
 * box are not live regions.
 */
export function SearchAnnouncer() {
  const { t } = useTranslation();
  const sentence = useAppStore((state) => {
    if (state.answered === '' || state.searchError) return '';
    const count = state.hits.length;
    if (count >= FIRST_LIMIT) return t('searchSaid.foundMore', { count: FIRST_LIMIT });
    if (count > 0) return t('searchSaid.found', { count });
    // The typed number's row says what Enter dials; nothing else to say.
    if (state.dialRow) return '';
    const loading = state.directory?.state === 'syncing' && state.directory.contacts === 0;
    return loading ? t('searchSaid.loading') : t('searchSaid.none');
  });
  const [said, setSaid] = useState('');
  // Nothing to say (a typed number, an error): quiet at once, so an older count does not stay.
  const [before, setBefore] = useState(sentence);
  if (sentence !== before) {
    setBefore(sentence);
    if (sentence === '') setSaid('');
  }
  useEffect(() => {
    if (sentence === '') return;
    const timer = setTimeout(() => setSaid(sentence), SEARCH_SETTLED_MS);
    return () => clearTimeout(timer);
  }, [sentence]);
  return (
    <div
      className="visually-hidden"
      role="status"
      aria-atomic="true"
      data-testid="search-announcer"
    >
      {said}
    </div>
  );
}
