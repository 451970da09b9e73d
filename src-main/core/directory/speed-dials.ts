/**
 * Speed dials of the contact index: the contacts' codes (0–9999) sorted by value, so a typed
 * code is one lookup and a typed prefix one range per code length.
 */
import type { DirectoryContact } from '../../../src-shared/contract';
import { Tier, type RankedCandidates } from './ranked-candidates';
import { lowerBound } from './lower-bound';

const CODES = 10_000;

export class SpeedDials {
  /** The codes, sorted. */
  readonly #values: Int32Array;
  /** The contact of each code. */
  readonly #contacts: Int32Array;

  private constructor(values: Int32Array, contacts: Int32Array) {
    this.#values = values;
    this.#contacts = contacts;
  }

  /**
   * Indexes the codes of `contacts` (in ranking order): a counting sort, yielding before each of
   * its two passes and after every `slice` contacts.
   */
  static *build(contacts: readonly DirectoryContact[], slice: number): Generator<void, SpeedDials> {
    const size = contacts.length;
    const byValue = new Int32Array(CODES + 1);
    for (let from = 0; from < size; from += slice) {
      if (slice < size) yield;
      for (let index = from; index < Math.min(size, from + slice); index++) {
        const value = contacts[index]!.speed_dial;
        if (value !== null && value >= 0 && value < CODES) byValue[value + 1]!++;
      }
    }
    for (let v = 0; v < CODES; v++) byValue[v + 1]! += byValue[v]!;
    const values = new Int32Array(byValue[CODES]!);
    const indexes = new Int32Array(byValue[CODES]!);
    const fill = byValue.slice(0, CODES);
    for (let from = 0; from < size; from += slice) {
      if (slice < size) yield;
      for (let index = from; index < Math.min(size, from + slice); index++) {
        const value = contacts[index]!.speed_dial;
        if (value === null || value < 0 || value >= CODES) continue;
        const at = fill[value]!++;
        values[at] = value;
        indexes[at] = index;
      }
    }
    return new SpeedDials(values, indexes);
  }

  /** The contact (its number in ranking order) with this code, or -1. */
  find(code: number): number {
    const at = lowerBound(this.#values, code);
    return this.#values[at] === code ? this.#contacts[at]! : -1;
  }

  /** Adds the contacts whose code is `digits` (exact) or starts with them (prefix). */
  match(digits: string, candidates: RankedCandidates): void {
    const value = Number(digits);
    for (let length = digits.length; length <= 4; length++) {
      const scale = 10 ** (length - digits.length);
      const from = lowerBound(this.#values, value * scale);
      const to = lowerBound(this.#values, (value + 1) * scale);
      for (let i = from; i < to; i++) {
        candidates.add(
          this.#contacts[i]!,
          length === digits.length ? Tier.speedDial : Tier.numberStart,
        );
      }
    }
  }
}
