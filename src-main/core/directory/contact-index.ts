/**
 * The local contact index: answers every keystroke of the search box from memory, in well under a
 * millisecond at 100,000 contacts, and identifies callers by number.
 *
 * - Contacts are numbered in ranking order (higher phonebook priority first, then name), so the
 *   best hits of a match class are its smallest numbers.
 * - Names and companies: a sorted array of distinct folded words; a word prefix is a binary-search
 *   range, and the contacts of a range are one contiguous slice of a flat postings array. One
 *   typo (words of 4+ characters) is a handful of extra ranges, found by walking the sorted words
 *   like a trie.
 * - Numbers: one digit text per number (international digits, see number-forms), all in one
 *   string; a 3-digit-gram postings list finds the numbers holding a fragment of 3+ digits: only
 *   numbers on both of the fragment's two shortest lists are verified. A posting is flagged when
 *   its gram stands at the number's start or national start, so prefix matches read the flags of
 *   the fragment's first gram and nothing else. 1–2 digit fragments use small precomputed lists
 *   of the first contacts in ranking order.
 * - Every walk goes in ranking order and stops once later contacts cannot make the page; a query
 *   allocates little (a few small arrays), so keystrokes seldom meet a garbage collection.
 * - Speed dials: sorted by value; a prefix is one range per length.
 * - Caller lookup: the last 7 digits of every number, sorted, with the number packed in.
 *
 * The index is immutable: a change (sync, or a contact written through Callbar) builds a new one,
 * which takes a few milliseconds at a tenant's size.
 */
import type { DirectoryContact, SearchHit } from '../../../src-preload/contract';
import { describeHit } from './hit-description';
import { DialingPlan } from './number-forms';
import { parseQuery, type ParsedQuery } from './parsed-query';
import { MATCH_NAMES, MatchClass, RankedCandidates, combineClasses } from './ranked-candidates';
import { foldedWords } from './text-fold';

export interface ContactIndexOptions {
  /** Default region for numbers without a country code (CALLBAR_REGION). */
  region: string;
  /** A phonebook's priority: higher ranks first. Unknown phonebooks rank last. */
  priorityOf?: (phonebook: number) => number | undefined;
}

/** Fewest typed characters of a word before one typo is tolerated. */
const TYPO_MIN_LENGTH = 4;
/**
 * A word of 4+ characters typed with one left out is 3 characters long: at that length only a
 * missing character is tolerated ("eme" for "Emre", "wod" for "Wood").
 */
const MISSING_CHARACTER_MIN_LENGTH = 3;
/** How many contacts the 1–2 digit lists keep (the contract's largest limit). */
const SHORT_LIST_CAP = 500;
/** Shortest number suffix that identifies a caller. */
const SUFFIX_DIGITS = 7;
const PACK = 2 ** 20;
const NO_TRUNK = 255;

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

/**
 * Walking contacts in order finds a page of a term with P postings after about limit × N / P
 * contacts; reading its postings costs P. The walk wins when P² > limit × N (with this margin,
 * as matches may cluster late in the order).
 */
const WALK_MARGIN = 4;

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

/** A 3-digit gram posting's flag: the gram stands at the number's start or national start. */
const AT_START = 1 << 30;
const NUMBER_OF = AT_START - 1;

/** The 3 digits of `text` from `at`, as a number 0–999. */
function gramAt(text: string, at: number): number {
  return (
    (text.charCodeAt(at) - 48) * 100 +
    (text.charCodeAt(at + 1) - 48) * 10 +
    (text.charCodeAt(at + 2) - 48)
  );
}

/** 1 digit → 0–9, 2 digits → 10–109. */
function shortKey(digits: string): number {
  return digits.length === 1 ? Number(digits) : 10 + Number(digits);
}

/**
 * Lists of the first contacts (in ranking order) per key, each capped: once a list is full, adding
 * to it costs one comparison.
 */
class CappedLists {
  readonly #data: Int32Array;
  readonly #counts: Int32Array;

  constructor(keys: number) {
    this.#data = new Int32Array(keys * SHORT_LIST_CAP);
    this.#counts = new Int32Array(keys);
  }

  /** Adds `contact` to a list that is not full; true when that filled it. */
  add(key: number, contact: number): boolean {
    const count = this.#counts[key]!;
    if (count >= SHORT_LIST_CAP) return false;
    const at = key * SHORT_LIST_CAP + count;
    if (count > 0 && this.#data[at - 1] === contact) return false;
    this.#data[at] = contact;
    this.#counts[key] = count + 1;
    return count + 1 === SHORT_LIST_CAP;
  }

  /** The lists, copied to their length. */
  lists(): Int32Array[] {
    return Array.from(this.#counts, (count, key) =>
      this.#data.slice(key * SHORT_LIST_CAP, key * SHORT_LIST_CAP + count),
    );
  }
}

export class ContactIndex {
  readonly plan: DialingPlan;
  /** Contacts in ranking order. */
  readonly #contacts: DirectoryContact[];
  readonly #candidates: RankedCandidates;

  // Words: sorted distinct folded words; postings of word w are #postings[#postStart[w]…[w+1]].
  readonly #words: string[];
  readonly #postStart: Int32Array;
  readonly #postings: Int32Array;
  /** Each contact's words (ranks), contact by contact. */
  readonly #contactWordStart: Int32Array;
  readonly #contactWords: Int32Array;

  // Numbers, in contact order: their digit texts live in #digits.
  readonly #digits: string;
  readonly #numStart: Int32Array;
  readonly #numCcLen: Uint8Array;
  readonly #numTrunk: Uint8Array;
  readonly #numContact: Int32Array;
  readonly #contactNumbers: Int32Array;
  readonly #gramStart: Int32Array;
  readonly #gramPostings: Int32Array;
  readonly #shortPrefix: Int32Array[];
  readonly #shortInfix: Int32Array[];
  readonly #shortNational: Int32Array[];
  readonly #suffixes: Float64Array;
  /** Bit t set: some number has the one-digit trunk prefix t. */
  readonly #trunks: number;

  // Speed dials sorted by value.
  readonly #speedDials: Int32Array;
  readonly #speedDialContacts: Int32Array;

  private constructor(contacts: readonly DirectoryContact[], options: ContactIndexOptions) {
    this.plan = new DialingPlan(options.region);
    const size = contacts.length;
    this.#candidates = new RankedCandidates(size);

    // Words of every contact (name words first), in the order given.
    const wordIds = new Map<string, number>();
    const companyWords = new Map<string, number[]>();
    const idOf = (word: string): number => {
      let id = wordIds.get(word);
      if (id === undefined) wordIds.set(word, (id = wordIds.size));
      return id;
    };
    let pairs = new Int32Array(size * 6);
    let pairCount = 0;
    const push = (id: number) => {
      if (pairCount === pairs.length) {
        const grown = new Int32Array(pairs.length * 2);
        grown.set(pairs);
        pairs = grown;
      }
      pairs[pairCount++] = id;
    };
    const wordStart = new Int32Array(size + 1);
    const nameLengths = new Uint8Array(size);
    for (let i = 0; i < size; i++) {
      const contact = contacts[i]!;
      const name = foldedWords(contact.display_name);
      for (const word of name) push(idOf(word));
      nameLengths[i] = Math.min(name.length, 255);
      // Companies repeat: their words are read once.
      let company = companyWords.get(contact.company);
      if (!company) {
        company = foldedWords(contact.company).map(idOf);
        companyWords.set(contact.company, company);
      }
      for (const id of company) push(id);
      wordStart[i + 1] = pairCount;
    }
    const distinct = [...wordIds.keys()];
    const wordOrder = Int32Array.from(distinct.keys()).sort((a, b) =>
      distinct[a]! < distinct[b]! ? -1 : 1,
    );
    const rankOfId = new Int32Array(wordOrder.length);
    wordOrder.forEach((id, rank) => (rankOfId[id] = rank));
    this.#words = Array.from(wordOrder, (id) => distinct[id]!);

    // Ranking order: higher phonebook priority, then the name's words, then id.
    const order = rankingOrder(
      contacts,
      options.priorityOf,
      (i, k) => (k < nameLengths[i]! ? rankOfId[pairs[wordStart[i]! + k]!]! + 1 : 0),
      wordOrder.length + 1,
    );
    this.#contacts = Array.from(order, (i) => contacts[i]!);

    // Each contact's words, and every word's contacts (postings, in ranking order).
    this.#contactWordStart = new Int32Array(size + 1);
    this.#contactWords = new Int32Array(pairCount);
    this.#postStart = new Int32Array(wordOrder.length + 1);
    let at = 0;
    for (let index = 0; index < size; index++) {
      const from = wordStart[order[index]!]!;
      const to = wordStart[order[index]! + 1]!;
      for (let i = from; i < to; i++) {
        const rank = rankOfId[pairs[i]!]!;
        this.#contactWords[at++] = rank;
        this.#postStart[rank + 1]!++;
      }
      this.#contactWordStart[index + 1] = at;
    }
    for (let w = 0; w < wordOrder.length; w++) this.#postStart[w + 1]! += this.#postStart[w]!;
    this.#postings = new Int32Array(pairCount);
    const fill = this.#postStart.slice(0, wordOrder.length);
    for (let index = 0; index < size; index++) {
      for (let i = this.#contactWordStart[index]!; i < this.#contactWordStart[index + 1]!; i++) {
        this.#postings[fill[this.#contactWords[i]!]!++] = index;
      }
    }

    // Numbers: at most two a contact. They are read in the order given (the contact objects'
    // order in memory), then laid out in ranking order from these arrays alone.
    const readTexts: string[] = new Array<string>(size * 2).fill('');
    const readCcLens = new Uint8Array(size * 2);
    const readTrunks = new Uint8Array(size * 2);
    let trunkBits = 0;
    for (let i = 0; i < size; i++) {
      const contact = contacts[i]!;
      for (let k = 0; k < 2; k++) {
        const number = k === 0 ? contact.number : contact.secondary_number;
        if (!number) continue;
        const forms = this.plan.forms(number);
        readTexts[i * 2 + k] = forms.text;
        readCcLens[i * 2 + k] = forms.ccLen;
        const trunk = forms.trunk.length === 1 ? forms.trunk.charCodeAt(0) - 48 : NO_TRUNK;
        readTrunks[i * 2 + k] = trunk;
        if (trunk !== NO_TRUNK) trunkBits |= 1 << trunk;
      }
    }
    const texts: string[] = [];
    const starts = new Int32Array(size * 2 + 1);
    const ccLens = new Uint8Array(size * 2);
    const trunks = new Uint8Array(size * 2);
    const owners = new Int32Array(size * 2);
    this.#contactNumbers = new Int32Array(size + 1);
    let offset = 0;
    for (let index = 0; index < size; index++) {
      this.#contactNumbers[index] = texts.length;
      for (let read = order[index]! * 2, k = 0; k < 2; k++, read++) {
        const text = readTexts[read]!;
        if (text === '') continue;
        const n = texts.length;
        texts.push(text);
        starts[n] = offset;
        offset += text.length + 1;
        ccLens[n] = readCcLens[read]!;
        trunks[n] = readTrunks[read]!;
        owners[n] = index;
      }
    }
    const count = texts.length;
    this.#contactNumbers[size] = count;
    starts[count] = offset;
    this.#digits = texts.join(' ');
    this.#trunks = trunkBits;
    this.#numStart = starts.slice(0, count + 1);
    this.#numCcLen = ccLens.slice(0, count);
    this.#numTrunk = trunks.slice(0, count);
    this.#numContact = owners.slice(0, count);

    const gramCounts = new Int32Array(1001);
    const lastNumber = new Int32Array(1000).fill(-1);
    const shortPrefix = new CappedLists(110);
    const shortInfix = new CappedLists(110);
    let infixOpen = 110;
    // Keyed by trunk digit * 110 + the 1–2 digits after it.
    const shortNational = new CappedLists(1100);
    const grams = (visit: (gram: number, n: number) => void) => {
      lastNumber.fill(-1);
      for (let n = 0; n < count; n++) {
        const text = texts[n]!;
        for (let i = 0; i + 3 <= text.length; i++) {
          const gram = gramAt(text, i);
          if (lastNumber[gram] === n) continue;
          lastNumber[gram] = n;
          visit(gram, n);
        }
      }
    };
    grams((gram) => gramCounts[gram + 1]!++);
    for (let g = 0; g < 1000; g++) gramCounts[g + 1]! += gramCounts[g]!;
    this.#gramStart = gramCounts;
    this.#gramPostings = new Int32Array(gramCounts[1000]!);
    const gramFill = gramCounts.slice(0, 1000);
    // Each number's gram at its start and at its national start (-1: none).
    const startGrams = new Int16Array(count * 2).fill(-1);
    for (let n = 0; n < count; n++) {
      const text = texts[n]!;
      const ccLen = ccLens[n]!;
      if (text.length >= 3) startGrams[n * 2] = gramAt(text, 0);
      if (ccLen > 0 && text.length >= ccLen + 3) startGrams[n * 2 + 1] = gramAt(text, ccLen);
    }
    grams((gram, n) => {
      const atStart = startGrams[n * 2] === gram || startGrams[n * 2 + 1] === gram;
      this.#gramPostings[gramFill[gram]!++] = atStart ? n | AT_START : n;
    });

    for (let n = 0; n < count; n++) {
      const text = texts[n]!;
      const ccLen = ccLens[n]!;
      const contact = owners[n]!;
      const first = text.charCodeAt(0) - 48;
      const firstPair = 10 + first * 10 + text.charCodeAt(1) - 48;
      const national = ccLen > 0 ? text.charCodeAt(ccLen) - 48 : -1;
      const nationalPair = ccLen > 0 ? 10 + national * 10 + text.charCodeAt(ccLen + 1) - 48 : -1;
      shortPrefix.add(first, contact);
      if (text.length > 1) shortPrefix.add(firstPair, contact);
      if (ccLen > 0) {
        shortPrefix.add(national, contact);
        if (text.length > ccLen + 1) shortPrefix.add(nationalPair, contact);
      }
      // Every digit and pair is inside some number early on: these lists fill within the first
      // few thousand numbers, after which this loop is skipped.
      for (let i = 0; infixOpen > 0 && i < text.length; i++) {
        const digit = text.charCodeAt(i) - 48;
        if (digit !== first && digit !== national && shortInfix.add(digit, contact)) infixOpen--;
        if (i + 1 < text.length) {
          const pair = 10 + digit * 10 + text.charCodeAt(i + 1) - 48;
          if (pair !== firstPair && pair !== nationalPair && shortInfix.add(pair, contact)) {
            infixOpen--;
          }
        }
      }
      const trunk = trunks[n]!;
      if (trunk !== NO_TRUNK && ccLen > 0) {
        shortNational.add(trunk * 110 + national, contact);
        if (nationalPair >= 0 && text.length > ccLen + 1) {
          shortNational.add(trunk * 110 + nationalPair, contact);
        }
      }
    }
    this.#shortPrefix = shortPrefix.lists();
    this.#shortInfix = shortInfix.lists();
    this.#shortNational = shortNational.lists();

    // Suffixes (< 10^7 < 2^24) sorted by two 12-bit counting passes, numbers in order within one.
    const suffixOf = new Int32Array(count);
    for (let n = 0; n < count; n++) {
      const text = texts[n]!;
      let suffix = 0;
      for (let i = Math.max(0, text.length - SUFFIX_DIGITS); i < text.length; i++) {
        suffix = suffix * 10 + text.charCodeAt(i) - 48;
      }
      suffixOf[n] = suffix;
    }
    let bySuffix = Int32Array.from({ length: count }, (_, n) => n);
    for (const shift of [0, 12]) {
      const buckets = new Int32Array(4097);
      for (let n = 0; n < count; n++) buckets[((suffixOf[n]! >>> shift) & 4095) + 1]!++;
      for (let b = 0; b < 4096; b++) buckets[b + 1]! += buckets[b]!;
      const sorted = new Int32Array(count);
      for (const n of bySuffix) sorted[buckets[(suffixOf[n]! >>> shift) & 4095]!++] = n;
      bySuffix = sorted;
    }
    this.#suffixes = Float64Array.from(bySuffix, (n) => suffixOf[n]! * PACK + n);

    // Speed dials (0–9999): a counting sort.
    const byValue = new Int32Array(10_001);
    for (const contact of this.#contacts) {
      if (contact.speed_dial !== null && contact.speed_dial >= 0 && contact.speed_dial < 10_000) {
        byValue[contact.speed_dial + 1]!++;
      }
    }
    for (let v = 0; v < 10_000; v++) byValue[v + 1]! += byValue[v]!;
    this.#speedDials = new Int32Array(byValue[10_000]!);
    this.#speedDialContacts = new Int32Array(byValue[10_000]!);
    const sdFill = byValue.slice(0, 10_000);
    this.#contacts.forEach((contact, index) => {
      const value = contact.speed_dial;
      if (value === null || value < 0 || value >= 10_000) return;
      const at = sdFill[value]!++;
      this.#speedDials[at] = value;
      this.#speedDialContacts[at] = index;
    });
  }

  /** Indexes `contacts` (any order; the index ranks them). */
  static build(contacts: readonly DirectoryContact[], options: ContactIndexOptions): ContactIndex {
    return new ContactIndex(contacts, options);
  }

  get size(): number {
    return this.#contacts.length;
  }

  /** Every contact, in ranking order. */
  get contacts(): readonly DirectoryContact[] {
    return this.#contacts;
  }

  /** Ranked hits for what the user typed, each saying which field and characters matched. */
  search(query: string, limit = 50): SearchHit[] {
    const parsed = parseQuery(query);
    const ranked = this.rank(parsed, limit);
    const hits: SearchHit[] = [];
    for (const index of ranked) {
      const contact = this.#contacts[index]!;
      const match = MATCH_NAMES[this.#candidates.classOf(index)]!;
      hits.push({ contact, match, ...describeHit(contact, parsed, this.plan) });
    }
    return hits;
  }

  /** The ranked contact numbers alone (what the benchmark compares with other engines). */
  rank(parsed: ParsedQuery, limit: number): Int32Array {
    const candidates = this.#candidates;
    candidates.reset();
    if (parsed.words.length > 0) this.#matchWords(parsed.words, parsed.digitWords, limit);
    else if (parsed.digits !== '') this.#matchDigits(parsed.digits, limit);
    else return new Int32Array(0);
    return candidates.top(limit);
  }

  /** Caller identification: the same number, else the longest common ending of 7+ digits. */
  lookupByNumber(number: string): DirectoryContact | undefined {
    const forms = this.plan.forms(number);
    const text = forms.text;
    if (text === '') return undefined;
    const key = Number(text.slice(-SUFFIX_DIGITS));
    let best = -1;
    let bestScore = 0;
    for (let i = this.#lowerSuffix(key * PACK); i < this.#suffixes.length; i++) {
      const packed = this.#suffixes[i]!;
      if (Math.floor(packed / PACK) !== key) break;
      const n = packed % PACK;
      const score = commonEnding(this.#text(n), text);
      if (score < SUFFIX_DIGITS) continue;
      // Ties go to the better-ranked contact (numbers are in ranking order).
      if (score > bestScore || (score === bestScore && n < best)) {
        best = n;
        bestScore = score;
      }
    }
    return best < 0 ? undefined : this.#contacts[this.#numContact[best]!];
  }

  /** The contact with this speed-dial code. */
  findBySpeedDial(code: number): DirectoryContact | undefined {
    const at = lowerBound(this.#speedDials, code);
    return this.#speedDials[at] === code ? this.#contacts[this.#speedDialContacts[at]!] : undefined;
  }

  /* ---------------------------------------------------------------------------- words */

  #matchWords(words: string[], digitWords: string[], limit: number): void {
    this.#matchTerms(
      words.map((word) => this.#term(word, false)),
      limit,
    );
    // One typo: only when exact and prefix matches do not fill the page (they rank first).
    const typoPossible = words.some((word) => word.length >= MISSING_CHARACTER_MIN_LENGTH);
    if (this.#candidates.length < limit && typoPossible) {
      this.#candidates.reset();
      this.#matchTerms(
        words.map((word) => this.#term(word, true)),
        limit,
      );
    }
    for (const digits of digitWords) {
      this.#candidates.retain((contact) => (this.#contactHasDigits(contact, digits) ? 0 : -1));
    }
  }

  /**
   * Adds the contacts every term matches, with their class. The term with the fewest postings
   * drives; the others are checked on each contact's own words. When even that term is common
   * ("a"), contacts are walked in ranking order until `limit` are found, after the contacts that
   * match every term exactly (found from the exact words' postings).
   */
  #matchTerms(terms: Term[], limit: number): void {
    const candidates = this.#candidates;
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
      this.#addPostings(driver.lo, driver.hi, MatchClass.prefix);
      if (driver.exact >= 0) this.#addPostings(driver.exact, driver.exact + 1, MatchClass.exact);
      for (let i = 0; i < driver.fuzzy.length; i += 2) {
        this.#addPostings(driver.fuzzy[i]!, driver.fuzzy[i + 1]!, MatchClass.fuzzy);
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
  #addPostings(lo: number, hi: number, matchClass: number): void {
    const end = this.#postStart[hi]!;
    for (let p = this.#postStart[lo]!; p < end; p++)
      this.#candidates.add(this.#postings[p]!, matchClass);
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
    const words = this.#words;
    const lo = this.#lowerWord(text, 0, words.length);
    const hi = this.#prefixEnd(text, lo, words.length);
    const exact = lo < hi && words[lo] === text ? lo : -1;
    const ranges: number[] = [];
    if (withTypos && text.length >= MISSING_CHARACTER_MIN_LENGTH) {
      this.#typoVariants(text, text.length < TYPO_MIN_LENGTH, ranges);
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

  /**
   * Adds to `ranges` (as from, to pairs) the word ranges one typo away from `term`: a deletion,
   * transposition, substitution or insertion anywhere but in the last typed character matches as
   * a word prefix (the word may go on); a typo in the last character only matches a whole word.
   *
   * Every variant of a typo at position i starts with the term's first i characters, so it is
   * looked up among the words starting with them (a range that narrows as i grows), and a
   * substituted or inserted character among the words that have it there: a few steps of binary
   * search each instead of a search of every word.
   */
  #typoVariants(term: string, missingOnly: boolean, ranges: number[]): void {
    const words = this.#words;
    const length = term.length;
    // Words starting with head = term[0, i).
    let headLo = 0;
    let headHi = words.length;
    for (let i = 0; i < length && headLo < headHi; i++) {
      const head = term.slice(0, i);
      const last = i === length - 1;
      const rest = term.slice(i);
      const after = term.slice(i + 1);
      if (!missingOnly) {
        // Deletion of term[i] (the user typed an extra character).
        if (last) this.#addWhole(head, headLo, headHi, ranges);
        else this.#addPrefix(head + after, headLo, headHi, ranges);
        // Transposition of term[i] and term[i + 1].
        if (i + 1 < length) {
          const swapped = head + term[i + 1]! + term[i]! + term.slice(i + 2);
          if (i + 1 === length - 1) this.#addWhole(swapped, headLo, headHi, ranges);
          else this.#addPrefix(swapped, headLo, headHi, ranges);
        }
      }
      // Substitution of term[i], insertion before term[i]: only characters that occur there.
      let at = headLo;
      if (words[at]!.length === i) at++; // the word equal to head
      while (at < headHi) {
        const code = words[at]!.charCodeAt(i);
        const end = this.#charEnd(i, code, at, headHi);
        const char = words[at]![i]!;
        if (!missingOnly && char !== term[i]) {
          if (last) this.#addWhole(head + char + after, at, end, ranges);
          else this.#addPrefix(head + char + after, at, end, ranges);
        }
        this.#addPrefix(head + char + rest, at, end, ranges);
        at = end;
      }
      // Narrow to the words starting with term[0, i + 1).
      const next = term.slice(0, i + 1);
      headLo = this.#lowerWord(next, headLo, headHi);
      headHi = this.#prefixEnd(next, headLo, headHi);
    }
  }

  /** Adds the range of words in [from, to) that start with `text`, when there are any. */
  #addPrefix(text: string, from: number, to: number, ranges: number[]): void {
    const a = this.#lowerWord(text, from, to);
    const b = this.#prefixEnd(text, a, to);
    if (a < b) ranges.push(a, b);
  }

  /** Adds the word `text`, when it is one of the words in [from, to). */
  #addWhole(text: string, from: number, to: number, ranges: number[]): void {
    const at = this.#lowerWord(text, from, to);
    if (at < to && this.#words[at] === text) ranges.push(at, at + 1);
  }

  /**
   * In [from, to), words sharing their first `position` characters and having at least one more,
   * the end of the run whose next character is `code` (the run starts at `from`).
   */
  #charEnd(position: number, code: number, from: number, to: number): number {
    const words = this.#words;
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (words[mid]!.charCodeAt(position) <= code) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first word in [from, to) not below `text`. */
  #lowerWord(text: string, from: number, to: number): number {
    const words = this.#words;
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (words[mid]! < text) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** In [from, to), all words not below `text`: the first one that does not start with it. */
  #prefixEnd(text: string, from: number, to: number): number {
    const words = this.#words;
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (words[mid]!.startsWith(text)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /* -------------------------------------------------------------------------- numbers */

  #text(n: number): string {
    return this.#digits.slice(this.#numStart[n], this.#numStart[n + 1]! - 1);
  }

  #contactHasDigits(contact: number, digits: string): boolean {
    for (let n = this.#contactNumbers[contact]!; n < this.#contactNumbers[contact + 1]!; n++) {
      if (this.#text(n).includes(digits)) return true;
    }
    const speedDial = this.#contacts[contact]!.speed_dial;
    return speedDial !== null && String(speedDial).startsWith(digits);
  }

  #matchDigits(digits: string, limit: number): void {
    const candidates = this.#candidates;
    if (digits.length <= 4 && digits[0] !== '0') this.#matchSpeedDial(digits);
    // Whole numbers, as typed or in their international form: all of them (they rank first).
    for (const whole of new Set([digits, this.plan.forms(digits).text])) this.#matchWhole(whole);
    if (digits.length <= 2) {
      const key = shortKey(digits);
      for (const contact of this.#shortPrefix[key]!) candidates.add(contact, MatchClass.prefix);
      for (const contact of this.#shortInfix[key]!) candidates.add(contact, MatchClass.infix);
    } else {
      this.#matchStarts(digits, limit, -1);
      this.#matchAnywhere(digits, limit);
    }
    // A national form: trunk prefix + significant number ("030 1234…" for +49 30 1234…).
    const trunk = digits.charCodeAt(0) - 48;
    const national = digits.slice(1);
    if (national.length === 0 || !(this.#trunks & (1 << trunk))) return;
    if (national.length <= 2) {
      for (const contact of this.#shortNational[trunk * 110 + shortKey(national)]!) {
        candidates.add(contact, MatchClass.prefix);
      }
      return;
    }
    this.#matchStarts(national, limit, trunk);
  }

  /** Numbers whose digits are `whole`, or whose significant number is. */
  #matchWhole(whole: string): void {
    if (whole.length < 3) return;
    const key = Number(whole.slice(-SUFFIX_DIGITS));
    for (let i = this.#lowerSuffix(key * PACK); i < this.#suffixes.length; i++) {
      const packed = this.#suffixes[i]!;
      if (Math.floor(packed / PACK) !== key) break;
      const n = packed % PACK;
      const text = this.#text(n);
      if (text === whole || (this.#numCcLen[n]! > 0 && text.slice(this.#numCcLen[n]) === whole)) {
        this.#candidates.add(this.#numContact[n]!, MatchClass.exact);
      }
    }
  }

  /**
   * Prefix matches of `fragment` (3+ digits): numbers starting with it, at their start or their
   * national start (with `trunk` ≥ 0: only national starts of numbers with that trunk prefix),
   * in ranking order until `limit` contacts. They are among the postings of the fragment's first
   * gram flagged AT_START, so the walk reads the other numbers' flags alone: a rare prefix costs
   * one pass over a short, contiguous list.
   */
  #matchStarts(fragment: string, limit: number, trunk: number): void {
    const digits = this.#digits;
    const postings = this.#gramPostings;
    const gram = gramAt(fragment, 0);
    // A common first gram ("493" of every Berlin number): only numbers also on the fragment's
    // rarest other gram list are read.
    let rare = -1;
    let rareEnd = -1;
    for (let i = 1; i + 3 <= fragment.length; i++) {
      const other = gramAt(fragment, i);
      const from = this.#gramStart[other]!;
      const to = this.#gramStart[other + 1]!;
      if (
        to - from <
        (rare < 0 ? this.#gramStart[gram + 1]! - this.#gramStart[gram]! : rareEnd - rare)
      ) {
        rare = from;
        rareEnd = to;
      }
    }
    let found = 0;
    let last = -1;
    for (let p = this.#gramStart[gram]!; p < this.#gramStart[gram + 1]! && found < limit; p++) {
      const posting = postings[p]!;
      if (!(posting & AT_START)) continue;
      const n = posting & NUMBER_OF;
      if (rare >= 0) {
        while (rare < rareEnd && (postings[rare]! & NUMBER_OF) < n) rare++;
        if (rare === rareEnd) return;
        if ((postings[rare]! & NUMBER_OF) !== n) continue;
      }
      const start = this.#numStart[n]!;
      const ccLen = this.#numCcLen[n]!;
      const matches =
        trunk < 0
          ? digits.startsWith(fragment, start) ||
            (ccLen > 0 && digits.startsWith(fragment, start + ccLen))
          : this.#numTrunk[n] === trunk && ccLen > 0 && digits.startsWith(fragment, start + ccLen);
      if (!matches) continue;
      const contact = this.#numContact[n]!;
      this.#candidates.add(contact, MatchClass.prefix);
      if (contact !== last) {
        last = contact;
        found++;
      }
    }
  }

  /**
   * Numbers holding `fragment` (3+ digits) anywhere, from the shortest postings list among its
   * grams, in ranking order until `limit` contacts: with the prefix matches already in (they rank
   * first, see #matchStarts), later ones cannot make the page. A 3-digit fragment is its gram:
   * the postings alone say where it stands, no digit is read.
   */
  #matchAnywhere(fragment: string, limit: number): void {
    // The two shortest gram lists: a number must be on both (they are merged, in order).
    let bestGram = -1;
    let bestCount = Infinity;
    let otherGram = -1;
    let otherCount = Infinity;
    for (let i = 0; i + 3 <= fragment.length; i++) {
      const gram = gramAt(fragment, i);
      const gramCount = this.#gramStart[gram + 1]! - this.#gramStart[gram]!;
      if (gram === bestGram) continue;
      if (gramCount < bestCount) {
        [otherGram, otherCount] = [bestGram, bestCount];
        [bestGram, bestCount] = [gram, gramCount];
      } else if (gramCount < otherCount) [otherGram, otherCount] = [gram, gramCount];
    }
    const postings = this.#gramPostings;
    let other = otherGram < 0 ? -1 : this.#gramStart[otherGram]!;
    const otherEnd = otherGram < 0 ? -1 : this.#gramStart[otherGram + 1]!;
    const digits = this.#digits;
    const exactGram = fragment.length === 3;
    let found = 0;
    let last = -1;
    const end = this.#gramStart[bestGram + 1]!;
    for (let p = this.#gramStart[bestGram]!; p < end && found < limit; p++) {
      const posting = postings[p]!;
      const n = posting & NUMBER_OF;
      if (other >= 0) {
        while (other < otherEnd && (postings[other]! & NUMBER_OF) < n) other++;
        if (other === otherEnd) return;
        if ((postings[other]! & NUMBER_OF) !== n) continue;
      }
      let matchClass: number = MatchClass.infix;
      if (exactGram) {
        if (posting & AT_START) matchClass = MatchClass.prefix;
      } else {
        const start = this.#numStart[n]!;
        const ccStart = start + this.#numCcLen[n]!;
        if (
          digits.startsWith(fragment, start) ||
          (ccStart > start && digits.startsWith(fragment, ccStart))
        ) {
          matchClass = MatchClass.prefix;
        } else {
          const to = this.#numStart[n + 1]! - 1 - fragment.length;
          let from = start + 1;
          while (from <= to && !digits.startsWith(fragment, from)) from++;
          if (from > to) continue;
        }
      }
      const contact = this.#numContact[n]!;
      this.#candidates.add(contact, matchClass);
      if (contact !== last) {
        last = contact;
        found++;
      }
    }
  }

  #matchSpeedDial(digits: string): void {
    const value = Number(digits);
    for (let length = digits.length; length <= 4; length++) {
      const scale = 10 ** (length - digits.length);
      const from = lowerBound(this.#speedDials, value * scale);
      const to = lowerBound(this.#speedDials, (value + 1) * scale);
      for (let i = from; i < to; i++) {
        this.#candidates.add(
          this.#speedDialContacts[i]!,
          length === digits.length ? MatchClass.exact : MatchClass.prefix,
        );
      }
    }
  }

  #lowerSuffix(value: number): number {
    let lo = 0;
    let hi = this.#suffixes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#suffixes[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** How many digits two numbers share at their end; Infinity when they are the same. */
function commonEnding(a: string, b: string): number {
  if (a === b) return Infinity;
  let common = 0;
  while (
    common < a.length &&
    common < b.length &&
    a[a.length - 1 - common] === b[b.length - 1 - common]
  ) {
    common++;
  }
  return common;
}

function lowerBound(values: Int32Array, value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Contact positions by id: one numeric sort of (id, position) packed in a number, when ids fit. */
function orderById(contacts: readonly DirectoryContact[]): Int32Array {
  const keys = new Float64Array(contacts.length);
  for (let i = 0; i < contacts.length; i++) {
    const id = contacts[i]!.id;
    if (!Number.isInteger(id) || id < 0 || id >= 2 ** 32 || contacts.length > PACK) {
      return Int32Array.from(contacts.keys()).sort((a, b) => contacts[a]!.id - contacts[b]!.id);
    }
    keys[i] = id * PACK + i;
  }
  keys.sort();
  const order = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) order[i] = keys[i]! % PACK;
  return order;
}

/**
 * Higher phonebook priority first, then the name word by word (its first three words, as word
 * ranks from `nameWord(contact, k)`, 0 for none), then id: stable counting sorts, last key first,
 * so ordering 100,000 contacts takes a few passes over arrays instead of string comparisons.
 */
function rankingOrder(
  contacts: readonly DirectoryContact[],
  priorityOf: ContactIndexOptions['priorityOf'],
  nameWord: (contact: number, k: number) => number,
  words: number,
): Int32Array {
  let order = orderById(contacts);
  const sortBy = (keys: Int32Array, buckets: number) => {
    const counts = new Int32Array(buckets + 1);
    for (const contact of order) counts[keys[contact]! + 1]!++;
    for (let b = 0; b < buckets; b++) counts[b + 1]! += counts[b]!;
    const sorted = new Int32Array(order.length);
    for (const contact of order) sorted[counts[keys[contact]!]!++] = contact;
    order = sorted;
  };
  const keys = new Int32Array(contacts.length);
  for (let k = 2; k >= 0; k--) {
    for (let contact = 0; contact < contacts.length; contact++)
      keys[contact] = nameWord(contact, k);
    sortBy(keys, words);
  }
  const priorities = contacts.map((contact) => priorityOf?.(contact.phonebook) ?? -Infinity);
  const distinct = [...new Set(priorities)].sort((a, b) => b - a);
  const rankOf = new Map(distinct.map((priority, rank) => [priority, rank]));
  priorities.forEach((priority, contact) => (keys[contact] = rankOf.get(priority)!));
  sortBy(keys, distinct.length);
  return order;
}
