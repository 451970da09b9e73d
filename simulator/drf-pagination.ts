/**
 * DRF's PageNumberPagination: `page` (1-based, or "last") and `page_size` (default 48; invalid
 * values fall back to the default, larger ones are clamped to the maximum), absolute `next` and
 * `previous` links on the simulator's own origin (never the client's Host header) with the
 * request's query, keys sorted as DRF does, and "Invalid page." (404) for a page that does not
 * exist.
 */
import { notFound } from './drf-errors';
import type { SimRequest } from './http';

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
  limits: { maxPageSize: number; origin: string },
): Page<T> {
  const { maxPageSize, origin } = limits;
  const pageSize = requestedPageSize(request.query.get('page_size'), maxPageSize);
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const raw = request.query.get('page') ?? '1';
  const page = raw === 'last' ? pageCount : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(page) || page < 1 || page > pageCount) throw notFound('Invalid page.');
  const start = (page - 1) * pageSize;
  return {
    count: items.length,
    next: page < pageCount ? withPage(origin, request.url, page + 1) : null,
    previous: page > 1 ? withPage(origin, request.url, page - 1) : null,
    results: items.slice(start, start + pageSize),
  };
}

function requestedPageSize(raw: string | null, maxPageSize: number): number {
  if (raw === null || !/^\s*\+?\d+\s*$/.test(raw)) return Math.min(DEFAULT_PAGE_SIZE, maxPageSize);
  const size = Number(raw.trim());
  if (size <= 0) return Math.min(DEFAULT_PAGE_SIZE, maxPageSize);
  return Math.min(size, maxPageSize);
}

/** DRF's replace_query_param / remove_query_param (page 1 is linked without `page`). */
function withPage(origin: string, url: URL, page: number): string {
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
  return `${origin}${url.pathname}${text ? `?${text}` : ''}`;
}
