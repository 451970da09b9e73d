/**
 * DRF's SearchFilter and OrderingFilter. Search: the `search` value is split on whitespace and
 * commas; every term must be contained (case-insensitively, accents not folded, as PostgreSQL's
 * icontains) in at least one search field. Ordering: comma-separated fields, `-` for descending;
 * unknown fields are dropped silently and an ordering left empty falls back to the default. Ties
 * are broken by id so pagination is stable, unless the platform has none (`tieBreak`, for the
 * variant's 'unordered' ties: a new order at every query).
 */
import type { OrderingTies } from './options';

const collator = new Intl.Collator('en', { sensitivity: 'variant', numeric: false });

export function searchTerms(raw: string | null): string[] {
  if (!raw) return [];
  return raw
    .replace(/\0/g, '')
    .replace(/,/g, ' ')
    .split(/\s+/)
    .filter((term) => term.length > 0)
    .map((term) => term.toLocaleLowerCase());
}

/** Whether every term occurs in at least one of the values. */
export function matchesSearch(terms: string[], values: readonly string[]): boolean {
  const lowered = values.map((value) => value.toLocaleLowerCase());
  return terms.every((term) => lowered.some((value) => value.includes(term)));
}

export type SortValue = string | number | boolean;

export interface Ordering<T> {
  /** The ordering terms applied, e.g. ['-priority', 'description']. */
  terms: string[];
  compare: (a: T, b: T) => number;
}

export function ordering<T extends { id: number }>(
  raw: string | null,
  fields: Record<string, (item: T) => SortValue>,
  fallback: string[] = ['id'],
  ties: (a: T, b: T) => number = (a, b) => a.id - b.id,
): Ordering<T> {
  const requested = (raw ?? '')
    .split(',')
    .map((term) => term.trim())
    .filter((term) => {
      const name = term.startsWith('-') ? term.slice(1) : term;
      return Object.hasOwn(fields, name);
    });
  const terms = requested.length > 0 ? requested : fallback;
  return {
    terms,
    compare: (a, b) => {
      for (const term of terms) {
        const descending = term.startsWith('-');
        const key = fields[descending ? term.slice(1) : term] ?? ((item: T) => item.id);
        const result = compareValues(key(a), key(b));
        if (result !== 0) return descending ? -result : result;
      }
      return ties(a, b);
    },
  };
}

/**
 * How one query breaks ties: by id, or ('unordered') in a random order of this query's own, as a
 * database does for rows its ORDER BY leaves equal (another query orders them anew).
 */
export function tieBreak<T extends { id: number }>(ties: OrderingTies): (a: T, b: T) => number {
  if (ties === 'by-id') return (a, b) => a.id - b.id;
  const keys = new Map<number, number>();
  const key = (item: T) => {
    let value = keys.get(item.id);
    if (value === undefined) keys.set(item.id, (value = Math.random()));
    return value;
  };
  return (a, b) => key(a) - key(b);
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'string' && typeof b === 'string') return collator.compare(a, b);
  const x = Number(a);
  const y = Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
