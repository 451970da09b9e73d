/**
 * The contacts' numbers as the contact index reads them: at most two a contact, each as its digit
 * text (international digits, see number-forms), all in one string, in ranking order. The digit
 * grams and the caller suffixes are built from it; a number is known by its position here.
 */
import type { DirectoryContact } from '../../../src-shared/contract';
import { TEXT_GROWTH, textOf, type DialingPlan, type WrittenForms } from './number-forms';
import { Tier } from './ranked-candidates';

/** What follows each number's text in the table's string. */
const SPACE = 32;

/** A number without a one-digit trunk prefix. */
export const NO_TRUNK = 255;

export class NumberTable {
  /** Every number's digit text, in order, each followed by a space. */
  readonly digits: string;
  /** Where number n's text starts in `digits` (n + 1: where the next one starts). */
  readonly start: Int32Array;
  /** Length of number n's country code (0: bare digits). */
  readonly ccLen: Uint8Array;
  /** Number n's one-digit trunk prefix, or NO_TRUNK. */
  readonly trunk: Uint8Array;
  /** The contact number n belongs to. */
  readonly contact: Int32Array;
  /** Contact c's numbers are [contactStart[c], contactStart[c + 1]). */
  readonly contactStart: Int32Array;
  /** Bit t set: some number has the one-digit trunk prefix t. */
  readonly trunks: number;

  private constructor(parts: Omit<NumberTable, 'text' | 'tierOf' | 'contactHolds'>) {
    this.digits = parts.digits;
    this.start = parts.start;
    this.ccLen = parts.ccLen;
    this.trunk = parts.trunk;
    this.contact = parts.contact;
    this.contactStart = parts.contactStart;
    this.trunks = parts.trunks;
  }

  /**
   * Reads the contacts' numbers and lays them out in ranking order (`order[index]` is the
   * position in `contacts` of contact `index`), yielding after every `slice` contacts.
   */
  static *read(
    contacts: readonly DirectoryContact[],
    order: Int32Array,
    plan: DialingPlan,
    slice: number,
  ): Generator<void, NumberTable> {
    const reader = new NumberReader(contacts, order, plan);
    const steps = [
      (from: number, to: number) => reader.read(from, to),
      (from: number, to: number) => reader.layOut(from, to),
    ];
    for (const step of steps) {
      for (let from = 0; from < contacts.length; from += slice) {
        step(from, Math.min(contacts.length, from + slice));
        if (from + slice < contacts.length) yield;
      }
    }
    return new NumberTable(reader.parts());
  }

  /** Number n's digit text. */
  text(n: number): string {
    return this.digits.slice(this.start[n], this.start[n + 1]! - 1);
  }

  /**
   * How contact c's numbers hold `digits`: at a number's start, national start or in its
   * national form (trunk prefix + significant number) as Tier.numberStart, elsewhere as
   * Tier.numberInside; -1 when none does.
   */
  tierOf(c: number, digits: string): number {
    let tier = -1;
    const trunk = digits.charCodeAt(0) - 48;
    for (let n = this.contactStart[c]!; n < this.contactStart[c + 1]!; n++) {
      const start = this.start[n]!;
      const ccLen = this.ccLen[n]!;
      if (
        this.digits.startsWith(digits, start) ||
        (ccLen > 0 && this.digits.startsWith(digits, start + ccLen)) ||
        (ccLen > 0 &&
          digits.length > 1 &&
          this.trunk[n] === trunk &&
          this.digits.startsWith(digits.slice(1), start + ccLen))
      ) {
        return Tier.numberStart;
      }
      if (this.text(n).includes(digits)) tier = Tier.numberInside;
    }
    return tier;
  }

  /** Whether one of contact c's numbers holds `digits`. */
  contactHolds(c: number, digits: string): boolean {
    for (let n = this.contactStart[c]!; n < this.contactStart[c + 1]!; n++) {
      if (this.text(n).includes(digits)) return true;
    }
    return false;
  }
}

/**
 * Writes the numbers' digit texts into one buffer of character codes in the contacts' order in
 * memory (reading them in ranking order would jump about the heap), then lays them out in ranking
 * order from that buffer alone: no string is made per number, the table's one string is made at
 * the end.
 */
class NumberReader {
  readonly #contacts: readonly DirectoryContact[];
  readonly #order: Int32Array;
  readonly #plan: DialingPlan;
  readonly #written: WrittenForms = { length: 0, ccLen: 0, trunk: '', nsnStart: 0 };
  /** What was read: number k of contact i at #readStart[i * 2 + k], #readLength… long. */
  #read: Uint8Array;
  #readEnd = 0;
  readonly #readStart: Int32Array;
  readonly #readLength: Int32Array;
  readonly #readCcLen: Uint8Array;
  readonly #readTrunk: Uint8Array;
  #trunks = 0;
  /** The table, in ranking order. */
  #bytes: Uint8Array | undefined;
  #offset = 0;
  #count = 0;
  readonly #starts: Int32Array;
  readonly #ccLens: Uint8Array;
  readonly #trunk: Uint8Array;
  readonly #owners: Int32Array;
  readonly #contactStart: Int32Array;

  constructor(contacts: readonly DirectoryContact[], order: Int32Array, plan: DialingPlan) {
    const size = contacts.length;
    this.#contacts = contacts;
    this.#order = order;
    this.#plan = plan;
    // About two numbers of 16 characters a contact; grown when that is not enough.
    this.#read = new Uint8Array(size * 32 + 64);
    this.#readStart = new Int32Array(size * 2);
    this.#readLength = new Int32Array(size * 2);
    this.#readCcLen = new Uint8Array(size * 2);
    this.#readTrunk = new Uint8Array(size * 2);
    this.#starts = new Int32Array(size * 2 + 1);
    this.#ccLens = new Uint8Array(size * 2);
    this.#trunk = new Uint8Array(size * 2);
    this.#owners = new Int32Array(size * 2);
    this.#contactStart = new Int32Array(size + 1);
  }

  /** Reads the numbers of the contacts at positions [from, to) of those given. */
  read(from: number, to: number): void {
    const written = this.#written;
    for (let i = from; i < to; i++) {
      const contact = this.#contacts[i]!;
      for (let k = 0; k < 2; k++) {
        const number = k === 0 ? contact.number : contact.secondary_number;
        if (!number) continue;
        if (this.#readEnd + number.length + TEXT_GROWTH > this.#read.length) {
          const grown = new Uint8Array((this.#read.length + number.length + TEXT_GROWTH) * 2);
          grown.set(this.#read);
          this.#read = grown;
        }
        this.#plan.writeText(number, this.#read, this.#readEnd, written);
        if (written.length === 0) continue;
        const at = i * 2 + k;
        this.#readStart[at] = this.#readEnd;
        this.#readLength[at] = written.length;
        this.#readEnd += written.length;
        this.#readCcLen[at] = written.ccLen;
        const trunk = written.trunk.length === 1 ? written.trunk.charCodeAt(0) - 48 : NO_TRUNK;
        this.#readTrunk[at] = trunk;
        if (trunk !== NO_TRUNK) this.#trunks |= 1 << trunk;
      }
    }
  }

  /** Lays out the numbers of contacts [from, to) in ranking order, once all are read. */
  layOut(from: number, to: number): void {
    // Each text and its space: the read texts' length and a space each at most.
    const bytes = (this.#bytes ??= new Uint8Array(this.#readEnd + this.#contacts.length * 2));
    const read = this.#read;
    for (let index = from; index < to; index++) {
      this.#contactStart[index] = this.#count;
      for (let at = this.#order[index]! * 2, k = 0; k < 2; k++, at++) {
        const length = this.#readLength[at]!;
        if (length === 0) continue;
        const n = this.#count++;
        const offset = this.#offset;
        this.#starts[n] = offset;
        for (let i = 0, r = this.#readStart[at]!; i < length; i++) bytes[offset + i] = read[r + i]!;
        bytes[offset + length] = SPACE;
        this.#offset = offset + length + 1;
        this.#ccLens[n] = this.#readCcLen[at]!;
        this.#trunk[n] = this.#readTrunk[at]!;
        this.#owners[n] = index;
      }
    }
  }

  /** The table's fields, once every contact is laid out. */
  parts(): Omit<NumberTable, 'text' | 'tierOf' | 'contactHolds'> {
    const count = this.#count;
    this.#contactStart[this.#contactStart.length - 1] = count;
    this.#starts[count] = this.#offset;
    const bytes = this.#bytes ?? new Uint8Array(0);
    return {
      // The texts each followed by a space, but for the last one.
      digits: textOf(bytes, 0, Math.max(0, this.#offset - 1)),
      start: this.#starts.slice(0, count + 1),
      ccLen: this.#ccLens.slice(0, count),
      trunk: this.#trunk.slice(0, count),
      contact: this.#owners.slice(0, count),
      contactStart: this.#contactStart,
      trunks: this.#trunks,
    };
  }
}
