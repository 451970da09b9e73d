/**
 * The contacts a query matched, each with its best rank tier, and the selection of the top k.
 * The order is the one Spotlight, Raycast and Alfred use: match quality first (the tier), then
 * the user's own calls (contacts they call often or lately: the boosted ones), then the ranking
 * order the contacts are numbered in (phonebook priority, then A–Z). So within a tier the best
 * hits are the boosted ones, then the smallest numbers: the top k never needs a full sort. Arrays
 * are allocated once per index and reused by every query (a query stamps them with a new
 * generation instead of clearing them).
 */

/**
 * Rank tiers, best first: an exact speed dial; a whole number; the name starting with the query
 * (its first word matches the first query word, the other words match name words); a word of
 * the name starting with it; the company; a number starting with the digits, then holding them;
 * one typo, then more. Words matched whole rank before words matched by their start.
 */
export const Tier = {
  speedDial: 0,
  wholeNumber: 1,
  nameStartExact: 2,
  nameStart: 3,
  nameWordExact: 4,
  nameWord: 5,
  companyExact: 6,
  company: 7,
  numberStart: 8,
  numberInside: 9,
  fuzzy: 10,
  fuzzier: 11,
} as const;
export type Tier = (typeof Tier)[keyof typeof Tier];
/** What each tier reports as the hit's `match`. */
export const MATCH_NAMES = [
  'exact',
  'exact',
  'exact',
  'prefix',
  'exact',
  'prefix',
  'exact',
  'prefix',
  'prefix',
  'infix',
  'fuzzy',
  'fuzzy',
] as const;
const TIERS = MATCH_NAMES.length;

/** Above this share of all contacts, the top of a tier is found by walking contacts in order. */
const DENSE_SHARE = 1 / 32;

export class RankedCandidates {
  readonly #size: number;
  readonly #stamp: Uint32Array;
  readonly #tier: Uint8Array;
  readonly #list: Int32Array;
  #length = 0;
  #generation = 0;
  readonly #counts = new Int32Array(TIERS);
  /** Boosted contacts, best first; -1 for the others, else their place among them. */
  #boosted: Int32Array = new Int32Array(0);
  readonly #boostPlace: Int32Array;

  constructor(size: number) {
    this.#size = size;
    this.#stamp = new Uint32Array(size);
    this.#tier = new Uint8Array(size);
    this.#list = new Int32Array(size);
    this.#boostPlace = new Int32Array(size).fill(-1);
  }

  /** The contacts that rank first within their tier, best first (the user's own calls). */
  get boosted(): Int32Array {
    return this.#boosted;
  }

  set boosted(contacts: Int32Array) {
    for (const contact of this.#boosted) this.#boostPlace[contact] = -1;
    this.#boosted = contacts;
    contacts.forEach((contact, place) => (this.#boostPlace[contact] = place));
  }

  isBoosted(contact: number): boolean {
    return this.#boostPlace[contact]! >= 0;
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

  tierOf(contact: number): number {
    return this.#tier[contact]!;
  }

  /** How many candidates have `tier` or a better one. */
  countUpTo(tier: number): number {
    let count = 0;
    for (let t = 0; t <= tier; t++) count += this.#counts[t]!;
    return count;
  }

  /** Adds a contact, or improves its tier when it is already in. */
  add(contact: number, tier: number): void {
    if (this.#stamp[contact] !== this.#generation) {
      this.#stamp[contact] = this.#generation;
      this.#tier[contact] = tier;
      this.#list[this.#length++] = contact;
      this.#counts[tier]!++;
    } else if (tier < this.#tier[contact]!) {
      this.#counts[this.#tier[contact]!]!--;
      this.#tier[contact] = tier;
      this.#counts[tier]!++;
    }
  }

  /** Keeps the contacts `keep` says yes to (a filter of every word of the query). */
  retain(keep: (contact: number) => boolean): void {
    let kept = 0;
    this.#counts.fill(0);
    for (let i = 0; i < this.#length; i++) {
      const contact = this.#list[i]!;
      if (!keep(contact)) {
        this.#stamp[contact] = 0;
        continue;
      }
      this.#counts[this.#tier[contact]!]!++;
      this.#list[kept++] = contact;
    }
    this.#length = kept;
  }

  /** The best `limit` contacts: by tier, then boosted first, then by contact number. */
  top(limit: number): Int32Array {
    const result = new Int32Array(Math.min(limit, this.#length));
    let taken = 0;
    for (let tier = 0; tier < TIERS && taken < result.length; tier++) {
      const count = this.#counts[tier]!;
      if (count === 0) continue;
      for (const contact of this.#boosted) {
        if (taken < result.length && this.has(contact) && this.#tier[contact] === tier) {
          result[taken++] = contact;
        }
      }
      const need = result.length - taken;
      if (count > need && count >= this.#size * DENSE_SHARE) {
        // Dense: the first `need` members in order are near the start.
        for (let contact = 0; contact < this.#size && taken < result.length; contact++) {
          if (
            this.#stamp[contact] === this.#generation &&
            this.#tier[contact] === tier &&
            this.#boostPlace[contact]! < 0
          ) {
            result[taken++] = contact;
          }
        }
        continue;
      }
      const members = new Int32Array(count);
      let found = 0;
      for (let i = 0; i < this.#length && found < count; i++) {
        const contact = this.#list[i]!;
        if (this.#tier[contact] === tier && this.#boostPlace[contact]! < 0) {
          members[found++] = contact;
        }
      }
      members.subarray(0, found).sort();
      const take = Math.min(need, found);
      result.set(members.subarray(0, take), taken);
      taken += take;
    }
    return result;
  }
}
