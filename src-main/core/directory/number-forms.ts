/**
 * How a stored phone number is matched by digits, whatever its formatting. Every number gets one
 * digit text: its international form without "+" (country code, then the national significant
 * number) when it can be read as one, otherwise its bare digits (extensions, short codes).
 * National forms are derived from it: the significant number alone ("617 555 0137" for
 * "+1 617 555 0137") and the trunk prefix + significant number ("030 1234567" for
 * "+49 30 1234567"). The country codes and trunk prefixes come from libphonenumber-js's metadata;
 * no per-number parse is needed, which keeps indexing 100,000 contacts fast.
 */
import { Metadata, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';
import metadata from 'libphonenumber-js/min/metadata';

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

/** The country code at the start of international digits (codes are prefix-free). */
function callingCodeOf(digits: string): string | undefined {
  for (let length = 1; length <= 3 && length < digits.length; length++) {
    const cc = digits.slice(0, length);
    if (callingCodes.has(cc)) return cc;
  }
  return undefined;
}

const NOT_DIGITS = /[^0-9]/g;
const DIGIT = /[0-9]/;

/** Reads numbers for one default region (numbers written without a country code). */
export class DialingPlan {
  readonly region: CountryCode;
  readonly #home: Plan;

  constructor(region: string) {
    this.region = region.toUpperCase() as CountryCode;
    const cc = getCountryCallingCode(this.region);
    this.#home = { cc, trunk: trunkOf(cc) };
  }

  /** The digit forms of a number as it is stored or typed ("+49 30 1234567", "030 1234567"). */
  forms(number: string): NumberForms {
    // One native pass each (a character-by-character concatenation allocated a string a digit).
    const digits = number.replace(NOT_DIGITS, '');
    const plusAt = number.indexOf('+');
    const firstDigit = number.search(DIGIT);
    const plus = plusAt >= 0 && (firstDigit < 0 || plusAt < firstDigit); // "+" before the first digit
    // "+49…" or "0049…": international.
    const intlStart = plus ? 0 : digits.startsWith('00') ? 2 : -1;
    if (intlStart >= 0) {
      const intl = digits.slice(intlStart);
      const cc = callingCodeOf(intl);
      if (cc)
        return {
          text: intl,
          ccLen: cc.length,
          trunk: trunkOf(cc),
          nsnStart: intlStart + cc.length,
        };
      return { text: intl, ccLen: 0, trunk: '', nsnStart: intlStart };
    }
    // Extensions and short codes stay bare digits.
    if (digits.length < 7) return { text: digits, ccLen: 0, trunk: '', nsnStart: 0 };
    const { cc, trunk } = this.#home;
    const nsnStart = trunk && digits.startsWith(trunk) ? trunk.length : 0;
    return { text: cc + digits.slice(nsnStart), ccLen: cc.length, trunk, nsnStart };
  }
}
