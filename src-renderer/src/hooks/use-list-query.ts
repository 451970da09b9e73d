import { useState } from 'react';

export interface ListQuery<Ordering extends string> {
  search: string;
  ordering: Ordering;
}

/** A list's search and order (the list is one, continuous: no pages to choose). */
export function useListQuery<Ordering extends string>(initial: Ordering) {
  const [query, setQuery] = useState<ListQuery<Ordering>>({ search: '', ordering: initial });
  return {
    query,
    /** What the list is loaded again for. */
    key: `${query.search.trim()}|${query.ordering}`,
    /** The search as the platform takes it (nothing when empty). */
    searchParam: query.search.trim() ? { search: query.search.trim() } : {},
    setSearch: (search: string) => setQuery((current) => ({ ...current, search })),
    setOrdering: (ordering: Ordering) => setQuery((current) => ({ ...current, ordering })),
  };
}
