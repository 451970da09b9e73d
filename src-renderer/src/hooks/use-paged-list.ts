import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ErrorInfo, Result } from '../../../src-shared/contract';

/** One page of a platform list, as core answers it. */
export interface ListPage<T> {
  count: number;
  page: number;
  page_size: number;
  has_more: boolean;
  results: T[];
}

/** The platform's pages as core asks for them (phonebook-editor.ts LIST_PAGE_SIZE), until told. */
const FIRST_PAGE_SIZE = 50;

/** A platform list shown as one continuous list: its pages are asked for as they come into view. */
export interface PagedList<T> {
  /** How many items there are, once the first page answered (until then, the count shown before). */
  count: number | undefined;
  /** Whether `count` is this search's and reload's own, not the one shown before it. */
  countIsCurrent: boolean;
  /** The item at `index`, once its page answered (until then, the one shown before). */
  itemAt: (index: number) => T | undefined;
  /** Asks for the pages that hold items `first` to `last` (the rows in view and near it). */
  want: (first: number, last: number) => void;
  /** Every item loaded so far, in order (what "select all" selects). */
  loaded: () => T[];
  error: ErrorInfo | undefined;
  /** A page is on its way. */
  loading: boolean;
  /** Asks again for the pages shown (after an edit), keeping them shown until the answers come. */
  reload: () => void;
}

interface Pages<T> {
  key: string;
  /** Reloads count up; an answer to an older one is dropped. */
  generation: number;
  /** How many there are, once page 1 of this key and generation answered. */
  count: number | undefined;
  /** How many were shown before (the previous search, the list before a reload). */
  staleCount: number | undefined;
  pageSize: number;
  pages: ReadonlyMap<number, T[]>;
  /** What was shown before (a reload, the previous search), until its page answers. */
  stale: ReadonlyMap<number, T[]>;
  asking: ReadonlySet<number>;
  error: ErrorInfo | undefined;
}

function fresh<T>(key: string, generation = 0): Pages<T> {
  return {
    key,
    generation,
    count: undefined,
    staleCount: undefined,
    pageSize: FIRST_PAGE_SIZE,
    pages: new Map(),
    stale: new Map(),
    asking: new Set(),
    error: undefined,
  };
}

function without<K, V>(map: ReadonlyMap<K, V>, key: K): Map<K, V> {
  const next = new Map(map);
  next.delete(key);
  return next;
}

/**
 * `load(page)` as one list: page 1 first, then whichever pages the rows in view need (no
 * Previous/Next); a new `key` (search, order) starts again, and an answer to an older key or
 * reload that arrives late is dropped.
 */
export function usePagedList<T>(
  load: (page: number) => Promise<Result<ListPage<T>>>,
  key: string,
): PagedList<T> {
  const [data, setData] = useState<Pages<T>>(() => fresh(key));
  // A new search or order starts again (React's "adjusting state when a prop changes"), the rows
  // before shown until the first page answers: no flash of an empty list between keystrokes.
  if (data.key !== key) {
    setData({ ...fresh<T>(key), staleCount: data.count ?? data.staleCount, stale: data.pages });
  }
  // What the callbacks read (never the render): the pages as last committed, and asked since.
  const latest = useRef(data);
  useLayoutEffect(() => {
    latest.current = data;
  }, [data]);
  const wanted = useRef({ first: 0, last: 0 });
  const loader = useRef(load);
  useLayoutEffect(() => {
    loader.current = load;
  });

  const ask = useCallback((page: number) => {
    const now = latest.current;
    if (now.pages.has(page) || now.asking.has(page)) return;
    latest.current = { ...now, asking: new Set(now.asking).add(page) };
    const same = (state: Pages<T>) => state.key === now.key && state.generation === now.generation;
    setData((state) =>
      same(state) ? { ...state, asking: new Set(state.asking).add(page) } : state,
    );
    void loader.current(page).then((result) =>
      setData((state) => {
        if (!same(state)) return state;
        const asking = new Set(state.asking);
        asking.delete(page);
        if (!result.ok) return { ...state, asking, error: result.error };
        return {
          ...state,
          asking,
          error: undefined,
          count: result.value.count,
          pageSize: result.value.page_size,
          pages: new Map(state.pages).set(page, result.value.results),
          stale: without(state.stale, page),
        };
      }),
    );
  }, []);

  const want = useCallback(
    (first: number, last: number) => {
      wanted.current = { first, last };
      const now = latest.current;
      if (now.count === undefined) return ask(1);
      const firstPage = Math.floor(first / now.pageSize) + 1;
      const lastPage = Math.floor(Math.min(last, now.count - 1) / now.pageSize) + 1;
      for (let page = firstPage; page <= lastPage; page += 1) ask(page);
    },
    [ask],
  );

  // Page 1 of each key and reload; then the pages in view (once page 1 said how many there are).
  const { generation, count } = data;
  useEffect(() => {
    ask(1);
  }, [key, generation, ask]);
  useEffect(() => {
    if (count !== undefined) want(wanted.current.first, wanted.current.last);
  }, [count, key, generation, want]);

  const reload = useCallback(
    () =>
      setData((state) => ({
        ...fresh<T>(state.key, state.generation + 1),
        staleCount: state.count ?? state.staleCount,
        pageSize: state.pageSize,
        stale: new Map([...state.stale, ...state.pages]),
      })),
    [],
  );

  return {
    count: data.count ?? data.staleCount,
    countIsCurrent: data.count !== undefined,
    itemAt: (index) => {
      const page = Math.floor(index / data.pageSize) + 1;
      const at = index % data.pageSize;
      return data.pages.get(page)?.[at] ?? data.stale.get(page)?.[at];
    },
    want,
    loaded: () =>
      [...data.pages.keys()].sort((a, b) => a - b).flatMap((page) => data.pages.get(page)!),
    error: data.error,
    loading: data.asking.size > 0,
    reload,
  };
}
