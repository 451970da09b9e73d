import type { DialTarget, SearchHit } from '../../../src-shared/contract';

/** One row of the results list: the typed number's row, or one of the directory's hits. */
export type ResultRow = { kind: 'dial'; target: DialTarget } | { kind: 'hit'; hit: SearchHit };

/** The hits, with the typed number's row where core placed it (first, or after `dialAt` hits). */
export function resultRows(state: {
  dialRow: DialTarget | undefined;
  dialAt: number;
  hits: readonly SearchHit[];
}): ResultRow[] {
  const rows: ResultRow[] = state.hits.map((hit) => ({ kind: 'hit', hit }));
  if (state.dialRow) {
    rows.splice(Math.min(state.dialAt, rows.length), 0, { kind: 'dial', target: state.dialRow });
  }
  return rows;
}

/**
 * Where `row` (a contact's hit, by the contact's id, or the typed number's row) stands in `rows`;
 * -1 when it is not there. A new answer for the same text keeps the highlighted row by it.
 */
export function sameRowAt(rows: readonly ResultRow[], row: ResultRow | undefined): number {
  if (!row) return -1;
  return rows.findIndex((each) =>
    row.kind === 'hit'
      ? each.kind === 'hit' && each.hit.contact.id === row.hit.contact.id
      : each.kind === 'dial',
  );
}
