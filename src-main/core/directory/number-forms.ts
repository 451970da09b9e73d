/**
 * How a stored phone number is matched by digits, whatever its formatting. Every number gets one
 * digit text: its international form without "+" (country code, then the national significant
 * number) when it can be read as one, otherwise its bare digits (extensions, short codes).
 * National forms are derived from it: the significant number alone ("617 555 0137" for
 * "+1 617 555 0137") and the trunk prefix + significant number ("030 1234567" for
 * "+49 30 1234567"). The country codes and trunk prefixes come from libphonenumber-js's metadata;
 * no per-number parse is needed, which keeps indexing 100,000 contacts fast.
 */
import { Buffer } from 'node:buffer';
import { Metadata, getCountryCallingCode, type CountryCode } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';
import {
  internationalPrefixes,
  internationalPrefixOf,
  mayStartInternationalPrefix,
} from '../numbers/parsed-number';

/** A number's digit text and where its national significant number starts. */
export interface NumberForms {
  /** International digits (no "+") or, when that is unknown, the number's bare digits. */
  text: string;
  /** Length of the country code at the start of `text`; 0 when `text` is bare digits. */
  ccLen: number;
  /** The national trunk prefix ("0", "1", "8"), "" when the country has none or unknown. */
  trunk: string;
  /**
   * Index in the stored number's own digits where the significant number starts, so a match in
   * `text` maps back to the characters shown (the stored form may be national or international).
   */
  nsnStart: number;
}

interface Plan {
  cc: string;
  trunk: string;
}

const callingCodes = new Set(Object.keys(metadata.country_calling_codes));
const trunkByCallingCode = new Map<string, string>();

function trunkPrefix(country: string): string {
  const plan = new Metadata().selectNumberingPlan(country as CountryCode) as unknown as {
    numberingPlan?: { nationalPrefix(): unknown };
  };
  const prefix = plan.numberingPlan?.nationalPrefix();
  return typeof prefix === 'string' ? prefix : '';
}

/** The trunk prefix of a country code's main country ("1" → US → "1", "49" → "0"). */
function trunkOf(cc: string): string {
  let trunk = trunkByCallingCode.get(cc);
  if (trunk === undefined) {
    const main = (metadata.country_calling_codes as Record<string, string[]>)[cc]?.[0];
    trunk = main ? trunkPrefix(main) : '';
    trunkByCallingCode.set(cc, trunk);
  }
  return trunk;
}

/** A country code (1–3 digits) as one key: its length × 1000 + its value. */
const codeKey = (length: number, value: number) => length * 1000 + value;
/** Whether each key is a country code. */
const isCallingCode = new Uint8Array(4000);
for (const cc of callingCodes) isCallingCode[codeKey(cc.length, Number(cc))] = 1;
/** The trunk prefix of each country code key, once asked for. */
const trunkByKey: (string | undefined)[] = [];

/**
 * Where a number's digit text was written (DialingPlan.writeText), and what it is: the fields of
 * NumberForms with the text's length in place of the text.
 */
export interface WrittenForms {
  length: number;
  ccLen: number;
  trunk: string;
  nsnStart: number;
}

const NOT_DIGITS = /[^0-9]/g;

/** The most a digit text is longer than the stored number (a home country code put in front). */
export const TEXT_GROWTH = 3;

/**
 * The string of the ASCII codes `codes[from, to)`, made in V8's heap: decoded as UTF-8 (the same
 * for ASCII, and fast); a large Buffer decoded to latin1 would be an external string, which the
 * heap figures do not count and V8 reads through one more step.
 */
export function textOf(codes: Uint8Array, from: number, to: number): string {
  return Buffer.from(codes.buffer, codes.byteOffset + from, to - from).toString('utf8');
}

/** Reads numbers for one default region (numbers written without a country code). */
export class DialingPlan {
  readonly region: CountryCode;
  readonly #home: Plan;
  /** The home country code's digits. */
  readonly #homeDigits: Uint8Array;
  /** Where forms() writes. */
  #scratch = new Uint8Array(32);
  readonly #written: WrittenForms = { length: 0, ccLen: 0, trunk: '', nsnStart: 0 };
  /** Whether a number starting with each digit may start with an international call prefix. */
  readonly #prefixStarts: boolean[];

  constructor(region: string) {
    this.region = region.toUpperCase() as CountryCode;
    const cc = getCountryCallingCode(this.region);
    this.#home = { cc, trunk: trunkOf(cc) };
    this.#homeDigits = Uint8Array.from(cc, (char) => char.charCodeAt(0));
    this.#prefixStarts = Array.from({ length: 10 }, (_, digit) =>
      mayStartInternationalPrefix(String(digit), this.region),
    );
  }

  /**
   * A typed query's digits as typed with "+" instead of each international call prefix they may
   * start with (numbers/parsed-number.ts: "011 49 30" in the US is "49 30"), none without one.
   */
  abroad(digits: string): string[] {
    return internationalPrefixes(digits, this.region).map((length) => digits.slice(length));
  }

  /**
   * The length of the international call prefix the `count` digits at `from` were written with
   * (numbers/parsed-number.ts's rule), -1 for none; no text is made for a number whose first
   * digit cannot start one.
   */
  #prefixLength(out: Uint8Array, from: number, count: number): number {
    if (count < 3 || !this.#prefixStarts[out[from]! - 48]) return -1;
    const length = internationalPrefixOf(textOf(out, from, from + count), this.region);
    return length > 0 ? length : -1;
  }

  /** The digit forms of a number as it is stored or typed ("+49 30 1234567", "030 1234567"). */
  forms(number: string): NumberForms {
    if (this.#scratch.length < number.length + TEXT_GROWTH) {
      this.#scratch = new Uint8Array(number.length + TEXT_GROWTH);
    }
    const written = this.#written;
    const homeAdded = this.writeText(number, this.#scratch, 0, written);
    // The same text as a string, from the number's digits (one native pass).
    const digits = number.replace(NOT_DIGITS, '');
    const text = homeAdded
      ? this.#home.cc + digits.slice(written.nsnStart)
      : digits.slice(digits.length - written.length);
    return { text, ccLen: written.ccLen, trunk: written.trunk, nsnStart: written.nsnStart };
  }

  /**
   * Writes a number's digit text (NumberForms.text) as character codes into `out` from `at`
   * (which must have room for number.length + TEXT_GROWTH of them) and says what it is in
   * `written`: building the index this way allocates nothing per number. True when the text is
   * the home country code and the number's significant digits (a national number).
   */
  writeText(number: string, out: Uint8Array, at: number, written: WrittenForms): boolean {
    // The digits go after room for the home country code, then move to their place.
    const home = this.#homeDigits;
    const from = at + home.length;
    let count = 0;
    let plus = false;
    for (let i = 0; i < number.length; i++) {
      const code = number.charCodeAt(i);
      if (code >= 48 && code <= 57) out[from + count++] = code;
      else if (code === 43 && count === 0) plus = true; // "+" before the first digit
    }
    // "+49…", or written with an international call prefix ("0049…", "011 49…" in the US).
    const intlStart = plus ? 0 : this.#prefixLength(out, from, count);
    let skip = 0;
    if (intlStart >= 0) {
      const intl = count - intlStart;
      let ccLen = 0;
      let trunk = '';
      for (let length = 1, value = 0; length <= 3 && length < intl; length++) {
        value = value * 10 + out[from + intlStart + length - 1]! - 48;
        const key = codeKey(length, value);
        if (isCallingCode[key]) {
          ccLen = length;
          trunk = trunkByKey[key] ??= trunkOf(String(value).padStart(length, '0'));
          break;
        }
      }
      written.ccLen = ccLen;
      written.trunk = trunk;
      written.nsnStart = intlStart + ccLen;
      skip = intlStart;
    } else if (count < 7) {
      // Extensions and short codes stay bare digits.
      written.ccLen = 0;
      written.trunk = '';
      written.nsnStart = 0;
    } else {
      const { trunk } = this.#home;
      let nsnStart = trunk.length > 0 && trunk.length <= count ? trunk.length : 0;
      for (let i = 0; i < nsnStart; i++) {
        if (out[from + i] !== trunk.charCodeAt(i)) nsnStart = 0;
      }
      out.set(home, at);
      written.ccLen = home.length;
      written.trunk = trunk;
      written.nsnStart = nsnStart;
      written.length = home.length + count - nsnStart;
      out.copyWithin(at + home.length, from + nsnStart, from + count);
      return true;
    }
    written.length = count - skip;
    out.copyWithin(at, from + skip, from + count);
    return false;
  }
}
