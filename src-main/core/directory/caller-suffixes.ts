/**
 * Caller identification for the contact index: the last 7 digits of every number, sorted, with
 * the number packed in. The contacts a caller's number may belong to are those with a number of
 * the same ending (numbers/number-match.ts decides which, if any, it is); a whole typed number is
 * found by its own ending.
 */
import { lowerBound } from './lower-bound';
import { ENDING_DIGITS, endingKey } from './number-endings';
import { Tier, type RankedCandidates } from './ranked-candidates';
import type { NumberTable } from './number-table';

/** Number positions (below 2^20) packed under a suffix in one double. */
const PACK = 2 ** 20;

export class CallerSuffixes {
  readonly #numbers: NumberTable;
  /** suffix × PACK + number, sorted. */
  readonly #suffixes: Float64Array;

  private constructor(numbers: NumberTable, suffixes: Float64Array) {
    this.#numbers = numbers;
    this.#suffixes = suffixes;
  }

  /**
   * Suffixes (< 10^7 < 2^24) sorted by two 12-bit counting passes, numbers in order within one;
   * yields after every `slice` numbers of a pass and, when that is fewer than all, between passes.
   */
  static *build(numbers: NumberTable, slice: number): Generator<void, CallerSuffixes> {
    const count = numbers.contact.length;
    const suffixOf = new Int32Array(count);
    for (let from = 0; from < count; from += slice) {
      readSuffixes(numbers, suffixOf, from, Math.min(count, from + slice));
      if (from + slice < count) yield;
    }
    let bySuffix: Int32Array = new Int32Array(count);
    for (let n = 0; n < count; n++) bySuffix[n] = n;
    for (const shift of [0, 12]) {
      if (slice < count) yield;
      bySuffix = yield* sortByDigits(suffixOf, bySuffix, shift, slice);
    }
    const suffixes = new Float64Array(count);
    for (let from = 0; from < count; from += slice) {
      if (slice < count) yield;
      for (let i = from; i < Math.min(count, from + slice); i++) {
        suffixes[i] = suffixOf[bySuffix[i]!]! * PACK + bySuffix[i]!;
      }
    }
    return new CallerSuffixes(numbers, suffixes);
  }

  /**
   * The contacts (their numbers in ranking order, best first, each once) with a number whose
   * digit text ends in the same 7 digits as `text` (a digit text): every contact the number may
   * belong to.
   */
  candidates(text: string): number[] {
    const numbers = this.#numbers;
    const key = endingKey(text);
    const found: number[] = [];
    for (let i = lowerBound(this.#suffixes, key * PACK); i < this.#suffixes.length; i++) {
      const n = this.#numberAt(i, key);
      if (n < 0) break;
      const contact = numbers.contact[n]!;
      if (!found.includes(contact)) found.push(contact);
    }
    return found.sort((a, b) => a - b);
  }

  /** Adds the contacts with a number whose digits are `whole`, or whose significant number is. */
  matchWhole(whole: string, candidates: RankedCandidates): void {
    if (whole.length < 3) return;
    const numbers = this.#numbers;
    const key = endingKey(whole);
    for (let i = lowerBound(this.#suffixes, key * PACK); i < this.#suffixes.length; i++) {
      const n = this.#numberAt(i, key);
      if (n < 0) break;
      const text = numbers.text(n);
      const ccLen = numbers.ccLen[n]!;
      if (text === whole || (ccLen > 0 && text.slice(ccLen) === whole)) {
        candidates.add(numbers.contact[n]!, Tier.wholeNumber);
      }
    }
  }

  /** The number at sorted position i, when its suffix is `key`; else -1. */
  #numberAt(i: number, key: number): number {
    const packed = this.#suffixes[i]!;
    return Math.floor(packed / PACK) === key ? packed % PACK : -1;
  }
}

/** The last 7 digits of numbers [from, to), as numbers. */
function readSuffixes(numbers: NumberTable, suffixOf: Int32Array, from: number, to: number): void {
  const { digits, start } = numbers;
  for (let n = from; n < to; n++) {
    const end = start[n + 1]! - 1;
    let suffix = 0;
    for (let i = Math.max(start[n]!, end - ENDING_DIGITS); i < end; i++) {
      suffix = suffix * 10 + digits.charCodeAt(i) - 48;
    }
    suffixOf[n] = suffix;
  }
}

/**
 * One stable counting pass of a radix sort: `order` by the 12 bits of the keys from `shift`,
 * yielding after every `slice` numbers counted or placed.
 */
function* sortByDigits(
  keyOf: Int32Array,
  order: Int32Array,
  shift: number,
  slice: number,
): Generator<void, Int32Array> {
  const count = order.length;
  const buckets = new Int32Array(4097);
  for (let from = 0; from < count; from += slice) {
    const to = Math.min(count, from + slice);
    for (let n = from; n < to; n++) buckets[((keyOf[n]! >>> shift) & 4095) + 1]!++;
    if (to < count) yield;
  }
  for (let b = 0; b < 4096; b++) buckets[b + 1]! += buckets[b]!;
  const sorted = new Int32Array(count);
  for (let from = 0; from < count; from += slice) {
    if (slice < count) yield;
    const to = Math.min(count, from + slice);
    for (let i = from; i < to; i++) {
      const n = order[i]!;
      sorted[buckets[(keyOf[n]! >>> shift) & 4095]!++] = n;
    }
  }
  return sorted;
}
