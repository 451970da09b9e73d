/**
 * Names and companies in the contact index: every word's contacts (postings) in ranking order,
 * one contiguous slice per word of a flat array, so the contacts of a word-prefix range are one
 * slice too; and each contact's own words, to check the other words of a query on a contact.
 * A query word is a Term: its exact word, its prefix range and its one-typo ranges.
 */
import type { DirectoryContact } from '../../../src-preload/contract';
import type { RankedCandidates } from './ranked-candidates';
import { MatchClass, combineClasses } from './ranked-candidates';
import { SortedWords } from './sorted-words';
import { foldedWords } from './text-fold';

/** Fewest typed characters of a word before one typo is tolerated. */
const TYPO_MIN_LENGTH = 4;
/**
 * A word of 4+ characters typed with one left out is 3 characters long: at that length only a
 * missing character is tolerated ("eme" for "Emre", "wod" for "Wood").
 */
export const MISSING_CHARACTER_MIN_LENGTH = 3;
/**
 * Walking contacts in order finds a page of a term with P postings after about limit × N / P
 * contacts; reading its postings costs P. The walk wins when P² > limit × N (with this margin,
 * as matches may cluster late in the order).
 */
const WALK_MARGIN = 4;

/** A query word, as ranges of the sorted words. */
export interface Term {
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

/**
 * The words of every contact (name words first, then company words), read in the order given:
 * the sorted words, and each contact's words as ranks. Ranking contacts needs the ranks, and
 * the postings need the ranking.
 */
export class ContactWords {
  readonly sorted: SortedWords;
  /** Contact i's words are ranks rankOfId[ids[wordStart[i]…[i + 1]]]. */
  readonly ids: Int32Array;
  readonly wordStart: Int32Array;
  readonly rankOfId: Int32Array;
  /** How many of contact i's words are its name's (at most 255). */
  readonly nameLengths: Uint8Array;

  constructor(contacts: readonly DirectoryContact[]) {
    const size = contacts.length;
    const wordIds = new Map<string, number>();
    const companyWords = new Map<string, number[]>();
    const idOf = (word: string): number => {
      let id = wordIds.get(word);
      if (id === undefined) wordIds.set(word, (id = wordIds.size));
      return id;
    };
    let ids = new Int32Array(size * 6);
    let count = 0;
    const push = (id: number) => {
      if (count === ids.length) {
        const grown = new Int32Array(ids.length * 2);
        grown.set(ids);
        ids = grown;
      }
      ids[count++] = id;
    };
    this.wordStart = new Int32Array(size + 1);
    this.nameLengths = new Uint8Array(size);
    for (let i = 0; i < size; i++) {
      const contact = contacts[i]!;
      const name = foldedWords(contact.display_name);
      for (const word of name) push(idOf(word));
      this.nameLengths[i] = Math.min(name.length, 255);
      // Companies repeat: their words are read once.
      let company = companyWords.get(contact.company);
      if (!company) {
        company = foldedWords(contact.company).map(idOf);
        companyWords.set(contact.company, company);
      }
      for (const id of company) push(id);
      this.wordStart[i + 1] = count;
    }
    this.ids = ids.subarray(0, count);
    const distinct = [...wordIds.keys()];
    const wordOrder = Int32Array.from(distinct.keys()).sort((a, b) =>
      distinct[a]! < distinct[b]! ? -1 : 1,
    );
    this.rankOfId = new Int32Array(wordOrder.length);
    wordOrder.forEach((id, rank) => (this.rankOfId[id] = rank));
    this.sorted = new SortedWords(Array.from(wordOrder, (id) => distinct[id]!));
  }

  /** Contact i's k-th name word as its rank + 1; 0 when its name has fewer words. */
  nameWord(i: number, k: number): number {
    return k < this.nameLengths[i]! ? this.rankOfId[this.ids[this.wordStart[i]! + k]!]! + 1 : 0;
  }
}

export class WordPostings {
  readonly words: SortedWords;
  // Postings of word w are #postings[#postStart[w]…[w + 1]], contacts in ranking order.
  readonly #postStart: Int32Array;
  readonly #postings: Int32Array;
  /** Each contact's words (ranks), contact by contact. */
  readonly #contactWordStart: Int32Array;
  readonly #contactWords: Int32Array;

  /** `order[index]`: the position in the contacts read of contact `index` (ranking order). */
  constructor(read: ContactWords, order: Int32Array) {
    this.words = read.sorted;
    const size = order.length;
    const wordCount = read.sorted.length;
    const { ids, wordStart, rankOfId } = read;
    this.#contactWordStart = new Int32Array(size + 1);
    this.#contactWords = new Int32Array(ids.length);
    this.#postStart = new Int32Array(wordCount + 1);
    let at = 0;
    for (let index = 0; index < size; index++) {
      const from = wordStart[order[index]!]!;
      const to = wordStart[order[index]! + 1]!;
      for (let i = from; i < to; i++) {
        const rank = rankOfId[ids[i]!]!;
        this.#contactWords[at++] = rank;
        this.#postStart[rank + 1]!++;
      }
      this.#contactWordStart[index + 1] = at;
    }
    for (let w = 0; w < wordCount; w++) this.#postStart[w + 1]! += this.#postStart[w]!;
    this.#postings = new Int32Array(ids.length);
    const fill = this.#postStart.slice(0, wordCount);
    for (let index = 0; index < size; index++) {
      for (let i = this.#contactWordStart[index]!; i < this.#contactWordStart[index + 1]!; i++) {
        this.#postings[fill[this.#contactWords[i]!]!++] = index;
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
   * Adds the contacts every term matches, with their class. The term with the fewest postings
   * drives; the others are checked on each contact's own words. When even that term is common
   * ("a"), contacts are walked in ranking order until `limit` are found, after the contacts that
   * match every term exactly (found from the exact words' postings).
   */
  #matchTerms(terms: Term[], limit: number, candidates: RankedCandidates): void {
    const driver = terms.reduce((best, term) => (term.postings < best.postings ? term : best));
    const classOf = (contact: number): number => {
      let matchClass = -1;
      for (const term of terms) {
        const termClass = this.#termClassOf(contact, term);
        if (termClass < 0) return -1;
        matchClass = matchClass < 0 ? termClass : combineClasses(matchClass, termClass);
      }
      return matchClass;
    };
    const walk = driver.postings * driver.postings > WALK_MARGIN * limit * this.size;
    if (terms.length === 1 && (!walk || driver.fuzzy.length > 0)) {
      // One term: a posting's word says its class, no contact's words need reading.
      this.#addPostings(driver.lo, driver.hi, MatchClass.prefix, candidates);
      if (driver.exact >= 0) {
        this.#addPostings(driver.exact, driver.exact + 1, MatchClass.exact, candidates);
      }
      for (let i = 0; i < driver.fuzzy.length; i += 2) {
        this.#addPostings(driver.fuzzy[i]!, driver.fuzzy[i + 1]!, MatchClass.fuzzy, candidates);
      }
      return;
    }
    if (!walk || driver.fuzzy.length > 0) {
      // A driver of one word has its postings in ranking order: once `limit` contacts have the
      // best class the terms allow, later ones cannot make the page.
      const inOrder = driver.hi - driver.lo === 1 && driver.fuzzy.length === 0;
      const best = terms
        .map((term): number =>
          term.exact >= 0
            ? MatchClass.exact
            : term.lo < term.hi
              ? MatchClass.prefix
              : MatchClass.fuzzy,
        )
        .reduce((a: number, b: number) => combineClasses(a, b));
      let bestFound = 0;
      const visit = (lo: number, hi: number) => {
        for (let p = this.#postStart[lo]!; p < this.#postStart[hi]!; p++) {
          const contact = this.#postings[p]!;
          if (candidates.has(contact)) continue;
          const matchClass = classOf(contact);
          if (matchClass < 0) continue;
          candidates.add(contact, matchClass);
          if (inOrder && matchClass === best && ++bestFound >= limit) return;
        }
      };
      visit(driver.lo, driver.hi);
      for (let i = 0; i < driver.fuzzy.length; i += 2)
        visit(driver.fuzzy[i]!, driver.fuzzy[i + 1]!);
      return;
    }
    // Every term is common: the exact matches first, then the first contacts in order.
    if (terms.every((term) => term.exact >= 0)) {
      const exact = terms.reduce((best, term) =>
        this.#wordPostings(term.exact) < this.#wordPostings(best.exact) ? term : best,
      );
      // Postings are in ranking order: the first `limit` exact matches are the best ones.
      let exactFound = 0;
      const end = this.#postStart[exact.exact + 1]!;
      for (let p = this.#postStart[exact.exact]!; p < end && exactFound < limit; p++) {
        const contact = this.#postings[p]!;
        if (classOf(contact) === MatchClass.exact) {
          candidates.add(contact, MatchClass.exact);
          exactFound++;
        }
      }
    }
    let found = 0;
    for (let contact = 0; contact < this.size && found < limit; contact++) {
      if (candidates.has(contact)) continue;
      const matchClass = classOf(contact);
      if (matchClass < 0) continue;
      candidates.add(contact, matchClass);
      found++;
    }
  }

  /** Adds the contacts of the words [lo, hi) with `matchClass` (or better, if they had it). */
  #addPostings(lo: number, hi: number, matchClass: number, candidates: RankedCandidates): void {
    const end = this.#postStart[hi]!;
    for (let p = this.#postStart[lo]!; p < end; p++) candidates.add(this.#postings[p]!, matchClass);
  }

  #wordPostings(word: number): number {
    return this.#postStart[word + 1]! - this.#postStart[word]!;
  }

  /** How well `term` matches one of the contact's words (-1: none does). */
  #termClassOf(contact: number, term: Term): number {
    let best = -1;
    for (let i = this.#contactWordStart[contact]!; i < this.#contactWordStart[contact + 1]!; i++) {
      const word = this.#contactWords[i]!;
      if (word === term.exact) return MatchClass.exact;
      if (word >= term.lo && word < term.hi) best = MatchClass.prefix;
      else if (best < 0 && term.fuzzy.length > 0 && inRanges(term.fuzzy, word))
        best = MatchClass.fuzzy;
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
