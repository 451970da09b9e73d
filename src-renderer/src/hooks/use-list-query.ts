import { useState } from 'react';

export interface ListQuery<Ordering extends string> {
  search: string;
  ordering: Ordering;
  page: number;
}

/** A list's search, order and page; a new search or order starts again at page 1. */
export function useListQuery<Ordering extends string>(initial: Ordering) {
  const [query, setQuery] = useState<ListQuery<Ordering>>({
    search: '',
    ordering: initial,
    page: 1,
  });
  return {
    query,
    /** What the list is loaded again for. */
    key: `${query.search}|${query.ordering}|${query.page}`,
    /** The search as the platform takes it (nothing when empty). */
    searchParam: query.search.trim() ? { search: query.search.trim() } : {},
    setSearch: (search: string) => setQuery((current) => ({ ...current, search, page: 1 })),
    setOrdering: (ordering: Ordering) => setQuery((current) => ({ ...current, ordering, page: 1 })),
    setPage: (page: number) => setQuery((current) => ({ ...current, page })),
  };
}
