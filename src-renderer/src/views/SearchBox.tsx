import type { KeyboardEvent, Ref } from 'react';
import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { RESULTS_ID } from './ResultList';

/**
 * The search box. Only it follows the typed text (the store's `query`), so a key re-renders the
 * box alone and never waits for the search; the search starts in the change handler itself. The
 * list beside it follows the answer (`answered`), which arrives after.
 */
export function SearchBox({
  ref,
  expanded,
  activeDescendant,
  onKeyDown,
}: {
  ref: Ref<HTMLInputElement>;
  /** The results list is shown (aria-expanded). */
  expanded: boolean;
  /** The highlighted row's id. */
  activeDescendant: string | undefined;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
}) {
  const { t } = useTranslation();
  const query = useAppStore((state) => state.query);
  const setQuery = useAppStore((state) => state.setQuery);
  return (
    <input
      ref={ref}
      className="search-box"
      type="search"
      role="combobox"
      aria-label={t('search.label')}
      placeholder={t('search.placeholder')}
      aria-expanded={expanded}
      aria-controls={RESULTS_ID}
      aria-autocomplete="list"
      aria-activedescendant={activeDescendant}
      autoComplete="off"
      spellCheck={false}
      value={query}
      onChange={(event) => void setQuery(event.target.value)}
      onKeyDown={onKeyDown}
    />
  );
}
