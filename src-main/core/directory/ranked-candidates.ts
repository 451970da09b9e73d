/**
 * The contacts a query matched, each with its best match class, and the selection of the top k.
 * Contacts are numbered in ranking order (phonebook priority, then name), so within a class the
 * best hits are the smallest numbers: the top k never needs a full sort. Arrays are allocated once
 * per index and reused by every query (a query stamps them with a new generation instead of
 * clearing them).
 */

/** Match classes, best first; the numbers are the ranking. */
export const MatchClass = { exact: 0, prefix: 1, infix: 2, fuzzy: 3 } as const;
export type MatchClass = (typeof MatchClass)[keyof typeof MatchClass];
/** Fuzzy classes go on: a hit with two words one typo away ranks after a hit with one. */
export const MATCH_NAMES = ['exact', 'prefix', 'infix', 'fuzzy', 'fuzzy', 'fuzzy'] as const;
const CLASSES = MATCH_NAMES.length;

/** The class of a hit from the classes of two of its query words. */
export function combineClasses(a: number, b: number): number {
  if (a >= MatchClass.fuzzy && b >= MatchClass.fuzzy) return Math.min(a + 1, CLASSES - 1);
  return Math.max(a, b);
}

/** Above this share of all contacts, the top of a class is found by walking contacts in order. */
const DENSE_SHARE = 1 / 32;

export class RankedCandidates {
  readonly #size: number;
  readonly #stamp: Uint32Array;
  readonly #class: Uint8Array;
  readonly #list: Int32Array;
  #length = 0;
  #generation = 0;
  readonly #counts = new Int32Array(CLASSES);

  constructor(size: number) {
    this.#size = size;
    this.#stamp = new Uint32Array(size);
    this.#class = new Uint8Array(size);
    this.#list = new Int32Array(size);
  }

  /** Forgets the previous query's candidates. */
  reset(): void {
    this.#length = 0;
    this.#counts.fill(0);
    this.#generation++;
    if (this.#generation === 0xffffffff) {
      this.#stamp.fill(0);
      this.#generation = 1;
    }
  }

  get length(): number {
    return this.#length;
  }

  has(contact: number): boolean {
    return this.#stamp[contact] === this.#generation;
  }

  classOf(contact: number): number {
    return this.#class[contact]!;
  }

  /** Adds a contact, or improves its class when it is already in. */
  add(contact: number, matchClass: number): void {
    if (this.#stamp[contact] !== this.#generation) {
      this.#stamp[contact] = this.#generation;
      this.#class[contact] = matchClass;
      this.#list[this.#length++] = contact;
      this.#counts[matchClass]!++;
    } else if (matchClass < this.#class[contact]!) {
      this.#counts[this.#class[contact]!]!--;
      this.#class[contact] = matchClass;
      this.#counts[matchClass]!++;
    }
  }

  /**
   * Keeps the contacts for which `classIn` gives a class (combined with the one they had, as every
   * word of a query must match); drops those for which it gives -1.
   */
  retain(classIn: (contact: number) => number): void {
    let kept = 0;
    this.#counts.fill(0);
    for (let i = 0; i < this.#length; i++) {
      const contact = this.#list[i]!;
      const matchClass = classIn(contact);
      if (matchClass < 0) {
        this.#stamp[contact] = 0;
        continue;
      }
      const worse = combineClasses(this.#class[contact]!, matchClass);
      this.#class[contact] = worse;
      this.#counts[worse]!++;
      this.#list[kept++] = contact;
    }
    this.#length = kept;
  }

  /** The best `limit` contacts: by class, then by contact number (the ranking order). */
  top(limit: number): Int32Array {
    const result = new Int32Array(Math.min(limit, this.#length));
    let taken = 0;
    for (let matchClass = 0; matchClass < CLASSES && taken < result.length; matchClass++) {
      const count = this.#counts[matchClass]!;
      if (count === 0) continue;
      const need = result.length - taken;
      if (count > need && count >= this.#size * DENSE_SHARE) {
        // Dense: the first `need` members in order are near the start.
        for (let contact = 0; contact < this.#size && taken < result.length; contact++) {
          if (this.#stamp[contact] === this.#generation && this.#class[contact] === matchClass) {
            result[taken++] = contact;
          }
        }
        continue;
      }
      const members = new Int32Array(count);
      let found = 0;
      for (let i = 0; i < this.#length && found < count; i++) {
        const contact = this.#list[i]!;
        if (this.#class[contact] === matchClass) members[found++] = contact;
      }
      members.sort();
      result.set(members.subarray(0, Math.min(need, count)), taken);
      taken += Math.min(need, count);
    }
    return result;
  }
}
