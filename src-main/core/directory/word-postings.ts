/**
 * Names and companies in the contact index: every word's contacts (postings) in ranking order,
 * one contiguous slice per word of a flat array, so the contacts of a word-prefix range are one
 * slice too; and each contact's own words, to check the other words of a query on a contact.
 * A query word is a Term: its exact word, its prefix range and its one-typo ranges. Every posting
 * and every contact's word says where the word stands: the name's first word, another name word,
 * or the company, which is what ranks a hit (ranked-candidates' tiers). Built from the contacts'
 * words as read (contact-words.ts), in the ranking order.
 */
import { Tier, type RankedCandidates } from './ranked-candidates';
import type { ContactWords } from './contact-words';
import type { SortedWords } from './sorted-words';

/** Fewest typed characters of a word before one typo is tolerated. */
const TYPO_MIN_LENGTH = 4;
/**
 * A word of 4+ characters typed with one left out is 3 characters long: at that length only a
 * missing character is tolerated ("eme" for "Emre", "wod" for "Wood").
 */
const MISSING_CHARACTER_MIN_LENGTH = 3;
/**
 * Walking contacts in order finds a page of a term with P postings after about limit × N / P
 * contacts; reading its postings costs P. The walk wins when P² > limit × N (with this margin,
 * as matches may cluster late in the order).
 */
const WALK_MARGIN = 4;

/** A query word, as ranges of the sorted words. */
interface Term {
  /** The word equal to it, or -1. */
  exact: number;
  /** Words it is a prefix of (the exact word included). */
  lo: number;
  hi: number;
  /** Word ranges one typo away: [from, to) pairs, sorted and disjoint. */
  fuzzy: Int32Array;
  /** How many postings all its ranges hold. */
  postings: number;
}

/** Where a word stands in a contact: the name's first word, another name word, the company. */
const FIRST_NAME_WORD = 0;
const NAME_WORD = 1;
const COMPANY_WORD = 2;
/** A posting (contact) or a contact's word (rank) with its place in the bits above. */
const PLACE_SHIFT = 29;
const VALUE_OF = (1 << PLACE_SHIFT) - 1;

/**
 * The tier of a query word matching a contact's word at `place` (FIRST_NAME_WORD only for the
 * query's first word: for the others, any name word is as good), whole or by its start.
 */
function placeTier(place: number, exact: boolean): number {
  return Tier.nameStartExact + place * 2 + (exact ? 0 : 1);
}

/**
 * The tier of a hit from the tiers of two of its query words: the worse place, exact only when
 * both are; typos count (a hit with two words one typo away ranks after a hit with one).
 */
function combineTiers(a: number, b: number): number {
  if (a >= Tier.fuzzy && b >= Tier.fuzzy) return Math.min(a + 1, Tier.fuzzier);
  if (a >= Tier.fuzzy || b >= Tier.fuzzy) return Math.max(a, b);
  const place = Math.max((a - Tier.nameStartExact) >> 1, (b - Tier.nameStartExact) >> 1);
  return placeTier(
    place,
    (((a - Tier.nameStartExact) & 1) | ((b - Tier.nameStartExact) & 1)) === 0,
  );
}

/** Whether `word` is in one of the sorted, disjoint [from, to) pairs. */
function inRanges(ranges: Int32Array, word: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ranges[mid * 2 + 1]! <= word) lo = mid + 1;
    else hi = mid;
  }
  return lo < ranges.length / 2 && ranges[lo * 2]! <= word;
}

export class WordPostings {
  readonly words: SortedWords;
  // Postings of word w are #postings[#postStart[w]…[w + 1]]: contacts in ranking order, each with
  // the word's place in that contact.
  readonly #postStart: Int32Array;
  readonly #postings: Int32Array;
  /** Postings in names (not companies) of the words below w: #namePostings[w]. */
  readonly #namePostings: Int32Array;
  /** Each contact's words (ranks, with their place), contact by contact. */
  readonly #contactWordStart: Int32Array;
  readonly #contactWords: Int32Array;
  /**
   * Where each phonebook priority starts, in ranking order: inside one, contacts go by their
   * first name word, so the names starting with a prefix are one range of contacts there.
   */
  readonly #groupStart: Int32Array;

  /** The arrays for the words read, filled by `build`. */
  private constructor(read: ContactWords, groupStart: Int32Array) {
    this.words = read.sorted;
    this.#groupStart = groupStart;
    const size = groupStart[groupStart.length - 1]!;
    const wordCount = read.sorted.length;
    this.#contactWordStart = new Int32Array(size + 1);
    this.#contactWords = new Int32Array(read.ids.length);
    this.#postStart = new Int32Array(wordCount + 1);
    this.#namePostings = new Int32Array(wordCount + 1);
    this.#postings = new Int32Array(read.ids.length);
  }

  /**
   * `order[index]`: the position in the contacts read of contact `index` (ranking order);
   * `groupStart`: where each priority starts in that order (see rankingOrder). Yields after
   * every `slice` contacts.
   */
  static *build(
    read: ContactWords,
    order: Int32Array,
    groupStart: Int32Array,
    slice: number,
  ): Generator<void, WordPostings> {
    const postings = new WordPostings(read, groupStart);
    const size = order.length;
    for (let from = 0; from < size; from += slice) {
      postings.#readContacts(read, order, from, Math.min(size, from + slice));
      if (from + slice < size) yield;
    }
    for (let w = 0; w < read.sorted.length; w++) {
      postings.#postStart[w + 1]! += postings.#postStart[w]!;
      postings.#namePostings[w + 1]! += postings.#namePostings[w]!;
    }
    const fill = postings.#postStart.slice(0, read.sorted.length);
    for (let from = 0; from < size; from += slice) {
      if (slice < size) yield;
      postings.#post(fill, from, Math.min(size, from + slice));
    }
    return postings;
  }

  /** Contacts [from, to)'s words, in ranking order, and how many postings each word has. */
  #readContacts(read: ContactWords, order: Int32Array, from: number, to: number): void {
    const { ids, wordStart, rankOfId, nameLengths } = read;
    let at = this.#contactWordStart[from]!;
    for (let index = from; index < to; index++) {
      const position = order[index]!;
      const first = wordStart[position]!;
      const end = wordStart[position + 1]!;
      const nameEnd = first + nameLengths[position]!;
      for (let i = first; i < end; i++) {
        const rank = rankOfId[ids[i]!]!;
        const place =
          i === first && i < nameEnd ? FIRST_NAME_WORD : i < nameEnd ? NAME_WORD : COMPANY_WORD;
        this.#contactWords[at++] = rank | (place << PLACE_SHIFT);
        this.#postStart[rank + 1]!++;
        if (place !== COMPANY_WORD) this.#namePostings[rank + 1]!++;
      }
      this.#contactWordStart[index + 1] = at;
    }
  }

  /** Contacts [from, to)'s postings, once every word's count is known (`fill`: where next). */
  #post(fill: Int32Array, from: number, to: number): void {
    for (let index = from; index < to; index++) {
      for (let i = this.#contactWordStart[index]!; i < this.#contactWordStart[index + 1]!; i++) {
        const word = this.#contactWords[i]!;
        this.#postings[fill[word & VALUE_OF]!++] = index | (word & ~VALUE_OF);
      }
    }
  }

  get size(): number {
    return this.#contactWordStart.length - 1;
  }

  /**
   * Adds the contacts every word matches, by prefix; when exact and prefix matches do not fill
   * the page, by one typo too (they rank first, so the typos are needed only then).
   */
  match(words: string[], limit: number, candidates: RankedCandidates): void {
    this.#matchTerms(
      words.map((word) => this.#term(word, false)),
      limit,
      candidates,
    );
    const typoPossible = words.some((word) => word.length >= MISSING_CHARACTER_MIN_LENGTH);
    if (candidates.length < limit && typoPossible) {
      candidates.reset();
      this.#matchTerms(
        words.map((word) => this.#term(word, true)),
        limit,
        candidates,
      );
    }
  }

  /**
   * Adds the contacts every term matches, with their tier. The term with the fewest postings
   * drives; the others are checked on each contact's own words. When even that term is common
   * ("a"), the page is filled tier by tier (#fillByTier).
   */
  #matchTerms(terms: Term[], limit: number, candidates: RankedCandidates): void {
    const driver = terms.reduce((best, term) => (term.postings < best.postings ? term : best));
    const tierOf = (contact: number): number => this.#tierOf(contact, terms);
    const walk = driver.postings * driver.postings > WALK_MARGIN * limit * this.size;
    if (terms.length === 1 && (!walk || driver.fuzzy.length > 0)) {
      // One term: a posting's word and place say its tier, no contact's words need reading.
      for (let word = driver.lo; word < driver.hi; word++) {
        this.#addPostings(word, word + 1, word === driver.exact, candidates);
      }
      for (let i = 0; i < driver.fuzzy.length; i += 2) {
        this.#addPostings(driver.fuzzy[i]!, driver.fuzzy[i + 1]!, undefined, candidates);
      }
      return;
    }
    if (!walk || driver.fuzzy.length > 0) {
      // A driver of one word has its postings in ranking order: once `limit` contacts have the
      // best tier the terms allow, later ones cannot make the page (but the boosted ones could).
      const inOrder = driver.hi - driver.lo === 1 && driver.fuzzy.length === 0;
      if (inOrder) this.#addBoosted(tierOf, candidates);
      // The best tier a contact can have: a word found in companies alone ranks as a company.
      const best = terms
        .map((term): number =>
          term.lo >= term.hi
            ? Tier.fuzzy
            : placeTier(
                this.#namePostings[term.hi]! > this.#namePostings[term.lo]!
                  ? FIRST_NAME_WORD
                  : COMPANY_WORD,
                term.exact >= 0,
              ),
        )
        .reduce(combineTiers);
      let bestFound = 0;
      const visit = (lo: number, hi: number) => {
        for (let p = this.#postStart[lo]!; p < this.#postStart[hi]!; p++) {
          const contact = this.#postings[p]! & VALUE_OF;
          if (candidates.has(contact)) continue;
          const tier = tierOf(contact);
          if (tier < 0) continue;
          candidates.add(contact, tier);
          if (inOrder && tier === best && ++bestFound >= limit) return;
        }
      };
      visit(driver.lo, driver.hi);
      for (let i = 0; i < driver.fuzzy.length; i += 2)
        visit(driver.fuzzy[i]!, driver.fuzzy[i + 1]!);
      return;
    }
    this.#fillByTier(terms, limit, candidates);
  }

  /**
   * Every term is common: the page is filled tier by tier, each step stopping once `limit`
   * contacts have its tier or a better one (later contacts cannot make the page then). First the
   * user's own calls (they rank first in their tier, wherever they are in the order); then names
   * starting with the query (one range of contacts per phonebook priority); then names with the
   * words (from the exact words' postings, then in order); then companies.
   */
  #fillByTier(terms: Term[], limit: number, candidates: RankedCandidates): void {
    const tierOf = (contact: number): number => this.#tierOf(contact, terms);
    this.#addBoosted(tierOf, candidates);
    /**
     * A visit of contacts in ranking order for `tier`, every better tier being complete: true
     * once `limit` contacts rank at `tier` or better (the better ones, the boosted ones, the ones
     * visited; not those an earlier step added out of order). Undefined: the page is full.
     */
    const walkFor = (tier: number): ((contact: number) => boolean) | undefined => {
      let count = candidates.countUpTo(tier - 1);
      for (const contact of candidates.boosted) {
        if (candidates.has(contact) && candidates.tierOf(contact) === tier) count++;
      }
      if (count >= limit) return undefined;
      return (contact) => {
        const found = candidates.has(contact) ? candidates.tierOf(contact) : tierOf(contact);
        if (found < 0) return false;
        if (!candidates.has(contact)) candidates.add(contact, found);
        if (found === tier && !candidates.isBoosted(contact)) count++;
        return count >= limit;
      };
    };
    const first = terms[0]!;
    if (
      first.exact >= 0 &&
      this.#nameStarts(first.exact, first.exact + 1, walkFor(Tier.nameStartExact))
    )
      return;
    if (this.#nameStarts(first.lo, first.hi, walkFor(Tier.nameStart))) return;
    // The rarest exact word's postings hold every contact with all the words whole.
    const exact = terms.every((term) => term.exact >= 0)
      ? terms.reduce((best, term) =>
          this.#wordPostings(term.exact) < this.#wordPostings(best.exact) ? term : best,
        ).exact
      : -1;
    for (const [exactTier, tier, inNames] of [
      [Tier.nameWordExact, Tier.nameWord, true],
      [Tier.companyExact, Tier.company, false],
    ] as const) {
      if (exact >= 0) {
        const visit = walkFor(exactTier);
        if (!visit) return;
        for (let p = this.#postStart[exact]!; p < this.#postStart[exact + 1]!; p++) {
          if (visit(this.#postings[p]! & VALUE_OF)) return;
        }
      }
      const visit = walkFor(tier);
      if (!visit) return;
      // The term with the fewest postings where this tier needs every term (names; anywhere):
      // when even it is common, contacts are walked in order; else its postings are read whole.
      const count = (term: Term) =>
        inNames
          ? this.#namePostings[term.hi]! - this.#namePostings[term.lo]!
          : this.#postStart[term.hi]! - this.#postStart[term.lo]!;
      const driver = terms.reduce((best, term) => (count(term) < count(best) ? term : best));
      if (count(driver) * count(driver) > WALK_MARGIN * limit * this.size) {
        for (let contact = 0; contact < this.size; contact++) if (visit(contact)) return;
      } else {
        for (let p = this.#postStart[driver.lo]!; p < this.#postStart[driver.hi]!; p++) {
          const posting = this.#postings[p]!;
          if (inNames && posting >>> PLACE_SHIFT === COMPANY_WORD) continue;
          const contact = posting & VALUE_OF;
          if (candidates.has(contact)) continue;
          const found = tierOf(contact);
          if (found >= 0) candidates.add(contact, found);
        }
      }
    }
  }

  /**
   * Visits the contacts whose first name word is in [lo, hi), in ranking order: one range of
   * contacts per phonebook priority. True once `visit` says the page is full (or there is none).
   */
  #nameStarts(lo: number, hi: number, visit: ((contact: number) => boolean) | undefined): boolean {
    if (!visit) return true;
    for (let g = 0; g + 1 < this.#groupStart.length; g++) {
      const from = this.#firstAtLeast(lo, this.#groupStart[g]!, this.#groupStart[g + 1]!);
      const to = this.#firstAtLeast(hi, from, this.#groupStart[g + 1]!);
      for (let contact = from; contact < to; contact++) if (visit(contact)) return true;
    }
    return false;
  }

  /** In contacts [from, to) of one priority, the first whose first name word is not below `word`. */
  #firstAtLeast(word: number, from: number, to: number): number {
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#firstWordOf(mid) < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The rank of the contact's first name word, -1 for none (its first word, if in its name). */
  #firstWordOf(contact: number): number {
    const at = this.#contactWordStart[contact]!;
    if (at === this.#contactWordStart[contact + 1]) return -1;
    const word = this.#contactWords[at]!;
    return word >>> PLACE_SHIFT === FIRST_NAME_WORD ? word & VALUE_OF : -1;
  }

  /** Adds the boosted contacts the terms match (they rank first in their tier). */
  #addBoosted(tierOf: (contact: number) => number, candidates: RankedCandidates): void {
    for (const contact of candidates.boosted) {
      const tier = tierOf(contact);
      if (tier >= 0) candidates.add(contact, tier);
    }
  }

  /**
   * Adds the contacts of the words [lo, hi), each with the tier of its word's place: matched
   * whole or by its start (`exact`), or with a typo (undefined).
   */
  #addPostings(
    lo: number,
    hi: number,
    exact: boolean | undefined,
    candidates: RankedCandidates,
  ): void {
    const end = this.#postStart[hi]!;
    for (let p = this.#postStart[lo]!; p < end; p++) {
      const posting = this.#postings[p]!;
      const tier = exact === undefined ? Tier.fuzzy : placeTier(posting >>> PLACE_SHIFT, exact);
      candidates.add(posting & VALUE_OF, tier);
    }
  }

  #wordPostings(word: number): number {
    return this.#postStart[word + 1]! - this.#postStart[word]!;
  }

  /** The tier of a contact for all the terms (-1: one of them matches none of its words). */
  #tierOf(contact: number, terms: Term[]): number {
    let tier = -1;
    for (let t = 0; t < terms.length; t++) {
      const termTier = this.#termTierOf(contact, terms[t]!, t === 0);
      if (termTier < 0) return -1;
      tier = tier < 0 ? termTier : combineTiers(tier, termTier);
    }
    return tier;
  }

  /** How well `term` matches one of the contact's words (-1: none does). */
  #termTierOf(contact: number, term: Term, firstTerm: boolean): number {
    let best = -1;
    for (let i = this.#contactWordStart[contact]!; i < this.#contactWordStart[contact + 1]!; i++) {
      const entry = this.#contactWords[i]!;
      const word = entry & VALUE_OF;
      let place = entry >>> PLACE_SHIFT;
      if (!firstTerm && place === NAME_WORD) place = FIRST_NAME_WORD;
      let tier: number;
      if (word === term.exact) tier = placeTier(place, true);
      else if (word >= term.lo && word < term.hi) tier = placeTier(place, false);
      else if (best < 0 && term.fuzzy.length > 0 && inRanges(term.fuzzy, word)) tier = Tier.fuzzy;
      else continue;
      if (tier === Tier.nameStartExact) return tier;
      if (best < 0 || tier < best) best = tier;
    }
    return best;
  }

  /** A query word as word ranges: its exact word, its prefix range, its one-typo ranges. */
  #term(text: string, withTypos: boolean): Term {
    const words = this.words;
    const [lo, hi] = words.prefixRange(text);
    const exact = lo < hi && words.words[lo] === text ? lo : -1;
    const ranges: number[] = [];
    if (withTypos && text.length >= MISSING_CHARACTER_MIN_LENGTH) {
      words.typoVariants(text, text.length < TYPO_MIN_LENGTH, ranges);
    }
    // Sorted and merged, for a binary search by word; ranges inside the prefix range add nothing.
    const order = Array.from({ length: ranges.length / 2 }, (_, i) => i * 2)
      .filter((i) => ranges[i]! < lo || ranges[i]! >= hi)
      .sort((x, y) => ranges[x]! - ranges[y]!);
    const fuzzy: number[] = [];
    for (const i of order) {
      const from = ranges[i]!;
      const to = ranges[i + 1]!;
      if (fuzzy.length > 0 && from <= fuzzy[fuzzy.length - 1]!) {
        fuzzy[fuzzy.length - 1] = Math.max(fuzzy[fuzzy.length - 1]!, to);
      } else fuzzy.push(from, to);
    }
    let postings = this.#postStart[hi]! - this.#postStart[lo]!;
    for (let i = 0; i < fuzzy.length; i += 2) {
      postings += this.#postStart[fuzzy[i + 1]!]! - this.#postStart[fuzzy[i]!]!;
    }
    return { exact, lo, hi, fuzzy: Int32Array.from(fuzzy), postings };
  }
}
