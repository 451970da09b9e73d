/**
 * The contacts' numbers as the contact index reads them: at most two a contact, each as its digit
 * text (international digits, see number-forms), all in one string, in ranking order. The digit
 * grams and the caller suffixes are built from it; a number is known by its position here.
 */
import type { DirectoryContact } from '../../../src-shared/contract';
import type { DialingPlan } from './number-forms';
import { Tier } from './ranked-candidates';

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

  /**
   * Reads the numbers in the order given (the contact objects' order in memory), then lays them
   * out in ranking order (`order[index]` is the position in `contacts` of contact `index`) from
   * these arrays alone.
   */
  constructor(contacts: readonly DirectoryContact[], order: Int32Array, plan: DialingPlan) {
    const size = contacts.length;
    const readTexts: string[] = new Array<string>(size * 2).fill('');
    const readCcLens = new Uint8Array(size * 2);
    const readTrunks = new Uint8Array(size * 2);
    let trunkBits = 0;
    for (let i = 0; i < size; i++) {
      const contact = contacts[i]!;
      for (let k = 0; k < 2; k++) {
        const number = k === 0 ? contact.number : contact.secondary_number;
        if (!number) continue;
        const forms = plan.forms(number);
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
    this.contactStart = new Int32Array(size + 1);
    let offset = 0;
    for (let index = 0; index < size; index++) {
      this.contactStart[index] = texts.length;
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
    this.contactStart[size] = count;
    starts[count] = offset;
    this.digits = texts.join(' ');
    this.trunks = trunkBits;
    this.start = starts.slice(0, count + 1);
    this.ccLen = ccLens.slice(0, count);
    this.trunk = trunks.slice(0, count);
    this.contact = owners.slice(0, count);
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
