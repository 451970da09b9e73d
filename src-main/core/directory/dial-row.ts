/**
 * Where a search answer's "Dial …" row goes, if anywhere: what Enter dials when the query reads
 * as a number. A whole number, a speed dial, an emergency number or a service code comes first.
 * A short digit string is offered as an extension only when it fits the tenant's numbering
 * (numbers/numbering.ts): "7946 02", a fragment of someone's number, is no extension of a tenant
 * whose extensions have 3 digits, and the contacts it matches come first, so Enter calls the first
 * of them. An extension that fits comes after the contacts whose number or speed dial the digits
 * are or start (they were meant as much), before those that merely hold them.
 */
import type { DialTarget, SearchHit } from '../../../src-shared/contract';
import { fitsNumbering, type Numbering } from '../numbers/numbering';

export interface DialRow {
  dial?: DialTarget;
  /** Hits before the row (absent: it is first). */
  dial_at?: number;
}

export function placeDialRow(
  target: DialTarget | undefined,
  hits: readonly SearchHit[],
  /** The tenant's numbering, asked for only when the row would be an extension. */
  numbering: () => Numbering,
): DialRow {
  if (!target) return {};
  if (target.kind !== 'extension' || target.class !== 'extension') return { dial: target };
  if (!fitsNumbering(target.destination, numbering())) return {};
  let strong = 0;
  while (
    strong < hits.length &&
    hits[strong]!.match !== 'infix' &&
    hits[strong]!.match !== 'fuzzy'
  ) {
    strong++;
  }
  return strong === 0 ? { dial: target } : { dial: target, dial_at: strong };
}
