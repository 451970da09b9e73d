/**
 * Where a search answer's "Dial …" row goes, if anywhere: what Enter dials when the query reads
 * as a number. A whole number, a speed dial, an emergency number or a service code comes first.
 * A short digit string is offered as an extension only when it fits the tenant's numbering
 * (numbers/numbering.ts): "7946 02", a fragment of someone's number, is no extension of a tenant
 * whose extensions have 3 digits, and the contacts it matches come first, so Enter calls the first
 * of them. An extension that fits comes after the contacts whose number or speed dial the digits
 * are or start (they were meant as much), before those that merely hold them. So does a number
 * read from letters (vanity numbers on): "030 Hanna" reads as 030 42662 and finds Hanna, and
 * Enter calls Hanna; "1-800-FLOWERS", which no contact holds, dials at once.
 */
import type { DialTarget, SearchHit } from '../../../src-shared/contract';
import { isDialLink } from '../numbers/dial-link';
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
  /** What was typed. */
  query = '',
): DialRow {
  if (!target) return {};
  const extension = target.kind === 'extension' && target.class === 'extension';
  if (extension && !fitsNumbering(target.destination, numbering())) return {};
  if (!extension && !spelt(query)) return { dial: target };
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

/** A number written with letters for its digits (a vanity number), not a link's. */
function spelt(query: string): boolean {
  return /\p{L}/u.test(query) && !isDialLink(query);
}
