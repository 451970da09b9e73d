import type { ReactNode } from 'react';
import { useTranslation } from '../i18n';
import type { useListQuery } from '../hooks/use-list-query';

/** A list's search box and order choice (and any extra tools, e.g. Delete selected). */
export function ListTools<Ordering extends string>({
  label,
  placeholder,
  list,
  orderings,
  children,
}: {
  /** The search box's accessible name ("Search contacts"). */
  label: string;
  placeholder: string;
  list: ReturnType<typeof useListQuery<Ordering>>;
  orderings: readonly { value: Ordering; label: string }[];
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="manage-tools">
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={list.query.search}
        onChange={(event) => list.setSearch(event.target.value)}
      />
      <label>
        {t('list.order')}
        <select
          value={list.query.ordering}
          onChange={(event) => list.setOrdering(event.target.value as Ordering)}
        >
          {orderings.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      {children}
    </div>
  );
}
