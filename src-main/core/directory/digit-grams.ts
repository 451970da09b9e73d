/**
 * Number fragments for the contact index: a 3-digit-gram postings list finds the numbers holding
 * a fragment of 3+ digits (only numbers on both of the fragment's two shortest lists are
 * verified). A posting is flagged when its gram stands at the number's start or national start,
 * so prefix matches read the flags of the fragment's first gram and nothing else. 1–2 digit
 * fragments use small precomputed lists of the first contacts in ranking order. Every walk goes
 * in ranking order and stops once later contacts cannot make the page.
 */
import { Tier, type RankedCandidates } from './ranked-candidates';
import { NO_TRUNK, type NumberTable } from './number-table';

/** How many contacts the 1–2 digit lists keep (the contract's largest limit). */
const SHORT_LIST_CAP = 500;
/** A 3-digit gram posting's flag: the gram stands at the number's start or national start. */
const AT_START = 1 << 30;
const NUMBER_OF = AT_START - 1;
/** The same flag on a gram (0–999) while building. */
const SEEN_AT_START = 1 << 10;

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
  /** A list's room: SHORT_LIST_CAP, or fewer when there are fewer contacts (each is in once). */
  readonly #cap: number;

  constructor(keys: number, contacts: number) {
    this.#cap = Math.max(1, Math.min(SHORT_LIST_CAP, contacts));
    this.#data = new Int32Array(keys * this.#cap);
    this.#counts = new Int32Array(keys);
  }

  /** Adds `contact` to a list that is not full; true when that filled it. */
  add(key: number, contact: number): boolean {
    const cap = this.#cap;
    const count = this.#counts[key]!;
    if (count >= cap) return false;
    const at = key * cap + count;
    if (count > 0 && this.#data[at - 1] === contact) return false;
    this.#data[at] = contact;
    this.#counts[key] = count + 1;
    return count + 1 === cap;
  }

  /** The lists, copied to their length. */
  lists(): Int32Array[] {
    const cap = this.#cap;
    return Array.from(this.#counts, (count, key) => this.#data.slice(key * cap, key * cap + count));
  }
}

export class DigitGrams {
  readonly #numbers: NumberTable;
  /** Postings of gram g: #postings[#gramStart[g]…[g + 1]], numbers in order, maybe AT_START. */
  readonly #gramStart: Int32Array;
  readonly #postings: Int32Array;
  /** 1–2 digits at a number's start or national start, keyed by shortKey. */
  readonly #shortPrefix: Int32Array[];
  /** 1–2 digits elsewhere in a number. */
  readonly #shortInfix: Int32Array[];
  /** Trunk digit * 110 + the 1–2 digits after it (a national form typed). */
  readonly #shortNational: Int32Array[];

  private constructor(numbers: NumberTable, reader: GramReader) {
    this.#numbers = numbers;
    this.#gramStart = reader.gramStart;
    this.#postings = reader.postings;
    this.#shortPrefix = reader.shortPrefix.lists();
    this.#shortInfix = reader.shortInfix.lists();
    this.#shortNational = reader.shortNational.lists();
  }

  /**
   * Reads the digit texts in place, from the table's one flat string, yielding after every
   * `slice` numbers. One pass reads every number's distinct grams (flagged when a gram is the one
   * at the number's start or national start) and counts them; a second lays them out by gram; a
   * third fills the short lists.
   */
  static *build(numbers: NumberTable, slice: number): Generator<void, DigitGrams> {
    const reader = new GramReader(numbers);
    const count = numbers.contact.length;
    const steps = [
      (from: number, to: number) => reader.count(from, to),
      (from: number, to: number) => reader.fill(from, to),
      (from: number, to: number) => reader.short(from, to),
    ];
    for (const step of steps) {
      for (let from = 0; from < count; from += slice) {
        step(from, Math.min(count, from + slice));
        if (from + slice < count) yield;
      }
    }
    return new DigitGrams(numbers, reader);
  }

  /**
   * Adds the contacts with a number holding `digits`, prefix matches (at a number's start or
   * national start) before the others, in ranking order until `limit` contacts each.
   */
  matchFragment(digits: string, limit: number, candidates: RankedCandidates): void {
    if (digits.length <= 2) {
      const key = shortKey(digits);
      for (const contact of this.#shortPrefix[key]!) candidates.add(contact, Tier.numberStart);
      for (const contact of this.#shortInfix[key]!) candidates.add(contact, Tier.numberInside);
    } else {
      this.#matchStarts(digits, limit, -1, candidates);
      this.#matchAnywhere(digits, limit, candidates);
    }
  }

  /**
   * Adds the contacts with a number in national form `digits`: trunk prefix + significant number
   * ("030 1234…" for +49 30 1234…).
   */
  matchNational(digits: string, limit: number, candidates: RankedCandidates): void {
    const trunk = digits.charCodeAt(0) - 48;
    const national = digits.slice(1);
    if (national.length === 0 || !(this.#numbers.trunks & (1 << trunk))) return;
    if (national.length <= 2) {
      for (const contact of this.#shortNational[trunk * 110 + shortKey(national)]!) {
        candidates.add(contact, Tier.numberStart);
      }
      return;
    }
    this.#matchStarts(national, limit, trunk, candidates);
  }

  /**
   * Prefix matches of `fragment` (3+ digits): numbers starting with it, at their start or their
   * national start (with `trunk` ≥ 0: only national starts of numbers with that trunk prefix),
   * in ranking order until `limit` contacts. They are among the postings of the fragment's first
   * gram flagged AT_START, so the walk reads the other numbers' flags alone: a rare prefix costs
   * one pass over a short, contiguous list.
   */
  #matchStarts(fragment: string, limit: number, trunk: number, candidates: RankedCandidates): void {
    const numbers = this.#numbers;
    const digits = numbers.digits;
    const postings = this.#postings;
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
      const start = numbers.start[n]!;
      const ccLen = numbers.ccLen[n]!;
      const matches =
        trunk < 0
          ? digits.startsWith(fragment, start) ||
            (ccLen > 0 && digits.startsWith(fragment, start + ccLen))
          : numbers.trunk[n] === trunk && ccLen > 0 && digits.startsWith(fragment, start + ccLen);
      if (!matches) continue;
      const contact = numbers.contact[n]!;
      candidates.add(contact, Tier.numberStart);
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
  #matchAnywhere(fragment: string, limit: number, candidates: RankedCandidates): void {
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
    const numbers = this.#numbers;
    const postings = this.#postings;
    let other = otherGram < 0 ? -1 : this.#gramStart[otherGram]!;
    const otherEnd = otherGram < 0 ? -1 : this.#gramStart[otherGram + 1]!;
    const digits = numbers.digits;
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
      let tier: number = Tier.numberInside;
      if (exactGram) {
        if (posting & AT_START) tier = Tier.numberStart;
      } else {
        const start = numbers.start[n]!;
        const ccStart = start + numbers.ccLen[n]!;
        if (
          digits.startsWith(fragment, start) ||
          (ccStart > start && digits.startsWith(fragment, ccStart))
        ) {
          tier = Tier.numberStart;
        } else {
          const to = numbers.start[n + 1]! - 1 - fragment.length;
          let from = start + 1;
          while (from <= to && !digits.startsWith(fragment, from)) from++;
          if (from > to) continue;
        }
      }
      const contact = numbers.contact[n]!;
      candidates.add(contact, tier);
      if (contact !== last) {
        last = contact;
        found++;
      }
    }
  }
}

/** The work of a DigitGrams build, number by number (see DigitGrams.build). */
class GramReader {
  readonly #numbers: NumberTable;
  /** Counts per gram, then where each gram's postings start (gram + 1: where they end). */
  readonly gramStart = new Int32Array(1001);
  #postings: Int32Array | undefined;
  #gramFill: Int32Array | undefined;
  readonly #lastNumber = new Int32Array(1000).fill(-1);
  /** Number n's distinct grams (maybe SEEN_AT_START) are #seen[#seenEnd[n - 1]…#seenEnd[n]]. */
  readonly #seen: Int16Array;
  readonly #seenEnd: Int32Array;
  #seenCount = 0;
  readonly shortPrefix: CappedLists;
  readonly shortInfix: CappedLists;
  #infixOpen = 110;
  readonly shortNational: CappedLists;

  constructor(numbers: NumberTable) {
    this.#numbers = numbers;
    // A small index's lists have room for its few contacts, not 500 each (2 MB a build).
    const contacts = numbers.contactStart.length - 1;
    this.shortPrefix = new CappedLists(110, contacts);
    this.shortInfix = new CappedLists(110, contacts);
    this.shortNational = new CappedLists(1100, contacts);
    this.#seen = new Int16Array(numbers.digits.length);
    this.#seenEnd = new Int32Array(numbers.contact.length);
  }

  get postings(): Int32Array {
    return this.#postings ?? new Int32Array(0);
  }

  /** Reads the distinct grams of numbers [from, to) and counts them. */
  count(from: number, to: number): void {
    const { digits, start: starts, ccLen: ccLens } = this.#numbers;
    const gramCounts = this.gramStart;
    const lastNumber = this.#lastNumber;
    const seen = this.#seen;
    let k = this.#seenCount;
    for (let n = from; n < to; n++) {
      const at = starts[n]!;
      const length = starts[n + 1]! - 1 - at;
      const ccLen = ccLens[n]!;
      const startGram = length >= 3 ? gramAt(digits, at) : -1;
      const nationalGram = ccLen > 0 && length >= ccLen + 3 ? gramAt(digits, at + ccLen) : -1;
      // The gram ending at i, rolled on digit by digit.
      let gram = 0;
      for (let i = 0; i < length; i++) {
        gram = (gram * 10 + digits.charCodeAt(at + i) - 48) % 1000;
        if (i < 2 || lastNumber[gram] === n) continue;
        lastNumber[gram] = n;
        gramCounts[gram + 1]!++;
        seen[k++] = gram === startGram || gram === nationalGram ? gram | SEEN_AT_START : gram;
      }
      this.#seenEnd[n] = k;
    }
    this.#seenCount = k;
  }

  /** Lays out the postings of numbers [from, to), once all are counted. */
  fill(from: number, to: number): void {
    if (!this.#postings) {
      for (let g = 0; g < 1000; g++) this.gramStart[g + 1]! += this.gramStart[g]!;
      this.#postings = new Int32Array(this.gramStart[1000]!);
      this.#gramFill = this.gramStart.slice(0, 1000);
    }
    const postings = this.#postings;
    const gramFill = this.#gramFill!;
    const seen = this.#seen;
    for (let n = from, i = n > 0 ? this.#seenEnd[n - 1]! : 0; n < to; n++) {
      for (; i < this.#seenEnd[n]!; i++) {
        const gram = seen[i]! & ~SEEN_AT_START;
        postings[gramFill[gram]!++] = seen[i]! & SEEN_AT_START ? n | AT_START : n;
      }
    }
  }

  /** Adds numbers [from, to) to the 1–2 digit lists. */
  short(from: number, to: number): void {
    const numbers = this.#numbers;
    const { digits, start: starts, ccLen: ccLens } = numbers;
    const { shortPrefix, shortInfix, shortNational } = this;
    for (let n = from; n < to; n++) {
      const at = starts[n]!;
      const length = starts[n + 1]! - 1 - at;
      const ccLen = ccLens[n]!;
      const contact = numbers.contact[n]!;
      // -1: the number is too short to have it (the next character is the separator).
      const first = length > 0 ? digits.charCodeAt(at) - 48 : -1;
      const firstPair = length > 1 ? 10 + first * 10 + digits.charCodeAt(at + 1) - 48 : -1;
      const national = ccLen > 0 && length > ccLen ? digits.charCodeAt(at + ccLen) - 48 : -1;
      const nationalPair =
        national >= 0 && length > ccLen + 1
          ? 10 + national * 10 + digits.charCodeAt(at + ccLen + 1) - 48
          : -1;
      if (first >= 0) shortPrefix.add(first, contact);
      if (firstPair >= 0) shortPrefix.add(firstPair, contact);
      if (national >= 0) shortPrefix.add(national, contact);
      if (nationalPair >= 0) shortPrefix.add(nationalPair, contact);
      // Every digit and pair is inside some number early on: these lists fill within the first
      // few thousand numbers, after which this loop is skipped.
      for (let i = 0; this.#infixOpen > 0 && i < length; i++) {
        const digit = digits.charCodeAt(at + i) - 48;
        if (digit !== first && digit !== national && shortInfix.add(digit, contact)) {
          this.#infixOpen--;
        }
        if (i + 1 < length) {
          const pair = 10 + digit * 10 + digits.charCodeAt(at + i + 1) - 48;
          if (pair !== firstPair && pair !== nationalPair && shortInfix.add(pair, contact)) {
            this.#infixOpen--;
          }
        }
      }
      const trunk = numbers.trunk[n]!;
      if (trunk !== NO_TRUNK && national >= 0) {
        shortNational.add(trunk * 110 + national, contact);
        if (nationalPair >= 0) shortNational.add(trunk * 110 + nationalPair, contact);
      }
    }
  }
}
