import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import type { ErrorInfo, Result } from '../../../src-shared/contract';

export interface ListPage<T> {
  count: number;
  page: number;
  page_size: number;
  has_more: boolean;
  results: T[];
}

interface Answer<T> {
  /** The key (and reload count) it answers. */
  for: string;
  page?: ListPage<T> | undefined;
  error?: ErrorInfo | undefined;
}

/**
 * One page of a platform list, loaded again whenever `key` (search, ordering, page) changes; an
 * answer to an older key that arrives late is dropped, and the last page stays shown while the
 * next one loads. `reload` after a change.
 */
export function usePlatformList<T>(load: () => Promise<Result<ListPage<T>>>, key: string) {
  const [reloads, setReloads] = useState(0);
  const wanted = `${key}#${reloads}`;
  const [answer, setAnswer] = useState<Answer<T> | undefined>();
  const [page, setPage] = useState<ListPage<T> | undefined>();
  const fetchPage = useEffectEvent(() => load());
  useEffect(() => {
    let current = true;
    void fetchPage().then((result) => {
      if (!current) return;
      if (result.ok) setPage(result.value);
      setAnswer({
        for: wanted,
        ...(result.ok ? { page: result.value } : { error: result.error }),
      });
    });
    return () => {
      current = false;
    };
  }, [wanted]);
  const reload = useCallback(() => setReloads((count) => count + 1), []);
  return {
    page,
    error: answer?.error,
    loading: answer?.for !== wanted,
    reload,
  };
}
