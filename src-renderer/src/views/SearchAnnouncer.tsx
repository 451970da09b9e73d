import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { FIRST_LIMIT } from '../store/directory-slice';
import { SettledStatus } from '../components/SettledStatus';

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
  return <SettledStatus text={sentence} testId="search-announcer" />;
}
