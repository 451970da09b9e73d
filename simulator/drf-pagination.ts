/**
 * DRF's PageNumberPagination: `page` (1-based, or "last") and `page_size` (default 48; invalid
 * values fall back to the default, larger ones are clamped to the maximum), absolute `next` and
 * `previous` links on the simulator's own origin (never the client's Host header) with the
 * request's query, keys sorted as DRF does, and "Invalid page." (404) for a page that does not
 * exist. Another implementation's choices (options.ts): a page_size above the maximum refused
 * with 400 `max_value` on `page_size` (as a serializer validating the query says it), and links
 * that are the query alone (`?page=2&…`, a reference relative to the page's own URL).
 */
import { notFound, validationError } from './drf-errors';
import type { SimRequest } from './http';
import type { NextLinks, PageSizeAboveMax } from './options';

export const DEFAULT_PAGE_SIZE = 48;

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export function paginate<T>(
  items: T[],
  request: SimRequest,
  limits: {
    maxPageSize: number;
    origin: string;
    pageSizeAboveMax?: PageSizeAboveMax;
    nextLinks?: NextLinks;
  },
): Page<T> {
  const { maxPageSize } = limits;
  const link = (page: number) =>
    withPage(limits.origin, request.url, page, limits.nextLinks === 'query-only');
  const rawSize = request.query.get('page_size');
  if (limits.pageSizeAboveMax === 'refuse' && requestedPageSize(rawSize, Infinity) > maxPageSize) {
    throw validationError([
      {
        code: 'max_value',
        detail: `Ensure this value is less than or equal to ${maxPageSize}.`,
        attr: 'page_size',
      },
    ]);
  }
  const pageSize = requestedPageSize(rawSize, maxPageSize);
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const raw = request.query.get('page') ?? '1';
  const page = raw === 'last' ? pageCount : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(page) || page < 1 || page > pageCount) throw notFound('Invalid page.');
  const start = (page - 1) * pageSize;
  return {
    count: items.length,
    next: page < pageCount ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results: items.slice(start, start + pageSize),
  };
}

function requestedPageSize(raw: string | null, maxPageSize: number): number {
  if (raw === null || !/^\s*\+?\d+\s*$/.test(raw)) return Math.min(DEFAULT_PAGE_SIZE, maxPageSize);
  const size = Number(raw.trim());
  if (size <= 0) return Math.min(DEFAULT_PAGE_SIZE, maxPageSize);
  return Math.min(size, maxPageSize);
}

/**
 * DRF's replace_query_param / remove_query_param (page 1 is linked without `page`); `queryOnly`:
 * the query alone, relative to the page that carries it.
 */
function withPage(origin: string, url: URL, page: number, queryOnly: boolean): string {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of url.searchParams) {
    grouped.set(key, [...(grouped.get(key) ?? []), value]);
  }
  if (page === 1) grouped.delete('page');
  else grouped.set('page', [String(page)]);
  const query = new URLSearchParams();
  for (const key of [...grouped.keys()].sort()) {
    for (const value of grouped.get(key) ?? []) query.append(key, value);
  }
  const text = query.toString();
  if (queryOnly) return `?${text}`;
  return `${origin}${url.pathname}${text ? `?${text}` : ''}`;
}
