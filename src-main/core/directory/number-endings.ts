/**
 * The scan's caller identification before the contact index exists: the contacts by the last 7
 * digits of their numbers, read from the numbers' text table in one pass over its bytes and sorted
 * as packed doubles (ending × 2^24 + contact). At 100,000 contacts this is one typed array made in
 * a few milliseconds, where a Map of strings took half a second of a start with a call log.
 * For a few numbers known in advance (the call log's), `contactsKeyed` finds the contacts the
 * index's caller-suffixes would offer for them in one pass, with nothing sorted.
 */
import { ENDING_DIGITS } from '../numbers/number-match';
import { lowerBound } from './lower-bound';
import { entryStart, type TextTable } from './text-table';

/**
 * The ending a call's number and a contact's number share to identify it: number-match's, which
 * the index's caller-suffixes and the scan key their numbers by.
 */
export { ENDING_DIGITS };
/** Contact positions (below 2^24) packed under an ending (below 10^7) in one double. */
const PACK = 2 ** 24;
const SPACE = 32;
const ZERO = 48;
/** How many of a key's last digits contactsKeyed tests first, and how many such tails there are. */
const TAIL_DIGITS = 3;
const TAILS = 10 ** TAIL_DIGITS;

export class NumberEndings {
  /** ending × PACK + contact, sorted. */
  readonly #packed: Float64Array;

  private constructor(packed: Float64Array) {
    this.#packed = packed;
  }

  /** The endings of `numbers` (entry c: contact c's digit texts, separated by a space). */
  static of(numbers: TextTable): NumberEndings {
    const { bytes, ends } = numbers;
    if (ends.length >= PACK) throw new RangeError(`more than ${PACK} contacts`);
    // At most two numbers a contact (search-texts' numberTexts), so at most two endings each.
    const packed = new Float64Array(ends.length * 2);
    let count = 0;
    let start = 0;
    for (let contact = 0; contact < ends.length; contact++) {
      const end = ends[contact]!;
      let runEnd = start;
      while (runEnd < end) {
        const runStart = runEnd;
        while (runEnd < end && bytes[runEnd] !== SPACE) runEnd++;
        if (runEnd - runStart >= ENDING_DIGITS && count < packed.length) {
          packed[count++] = runKey(bytes, runStart, runEnd) * PACK + contact;
        }
        runEnd++;
      }
      start = end;
    }
    return new NumberEndings(packed.subarray(0, count).sort());
  }

  /** The contacts (in order, each once) with a number ending in the last 7 digits of `text`. */
  contacts(text: string): number[] {
    if (text.length < ENDING_DIGITS) return [];
    const key = endingKey(text);
    const packed = this.#packed;
    const found: number[] = [];
    for (let i = lowerBound(packed, key * PACK); i < packed.length; i++) {
      const value = packed[i]!;
      if (Math.floor(value / PACK) !== key) break;
      const contact = value % PACK;
      if (found.at(-1) !== contact) found.push(contact);
    }
    return found;
  }
}

/**
 * The contacts (in order, each once) with a number whose key is in `keys`, a key being what
 * caller-suffixes sorts a number by: the value of its digit text's last 7 digits, or of all of
 * them when it has fewer (`endingKey`). Those are every contact the index's lookup may name for
 * a number of that key.
 */
export function contactsKeyed(numbers: TextTable, keys: ReadonlySet<number>): number[] {
  const { bytes, ends } = numbers;
  // A key's last three digits (all of it below 1,000) first: most numbers end in none of the
  // keys', and are passed over without making their key.
  const tails = new Uint8Array(TAILS);
  for (const key of keys) tails[key % TAILS] = 1;
  const found: number[] = [];
  let start = 0;
  for (let contact = 0; contact < ends.length; contact++) {
    const end = ends[contact]!;
    for (let runEnd = start; runEnd < end; runEnd++) {
      const runStart = runEnd;
      while (runEnd < end && bytes[runEnd] !== SPACE) runEnd++;
      let tail = 0;
      for (let i = Math.max(runStart, runEnd - TAIL_DIGITS); i < runEnd; i++) {
        tail = tail * 10 + bytes[i]! - ZERO;
      }
      if (runEnd === runStart || tails[tail] === 0) continue;
      if (keys.has(runKey(bytes, runStart, runEnd))) {
        found.push(contact);
        break;
      }
    }
    start = end;
  }
  return found;
}

/**
 * The keys (`endingKey`'s) of the numbers of `contacts`, read from the numbers' bytes: no text
 * is made for them (the scan asks this of every contact a query keeps).
 */
export function keysOf(numbers: TextTable, contacts: readonly number[]): Set<number> {
  const { bytes, ends } = numbers;
  const keys = new Set<number>();
  for (const contact of contacts) {
    const end = ends[contact]!;
    for (let runEnd = entryStart(numbers, contact); runEnd < end; runEnd++) {
      const runStart = runEnd;
      while (runEnd < end && bytes[runEnd] !== SPACE) runEnd++;
      if (runEnd > runStart) keys.add(runKey(bytes, runStart, runEnd));
    }
  }
  return keys;
}

/** The key of the digit run bytes[from, to): the value of its last 7 digits, or of all of fewer. */
function runKey(bytes: Uint8Array, from: number, to: number): number {
  let key = 0;
  for (let i = Math.max(from, to - ENDING_DIGITS); i < to; i++) key = key * 10 + bytes[i]! - ZERO;
  return key;
}

/** A digit text's key: the value of its last 7 digits (caller-suffixes' rule). */
export function endingKey(text: string): number {
  return Number(text.slice(-ENDING_DIGITS));
}
