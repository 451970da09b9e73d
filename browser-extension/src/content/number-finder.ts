/**
 * Phone numbers in a piece of text, found by libphonenumber's findNumbers (the "valid" leniency)
 * in the user's region, which Callbar tells the extension. A cheap test first: text without six
 * digits close together holds no number, and most of a page's text is like that.
 */
import { findNumbers, type CountryCode } from 'libphonenumber-js/min';

export interface FoundNumber {
  /** Where the number starts and ends in the text (UTF-16 offsets). */
  start: number;
  end: number;
  /** The number in international form, what the extension asks Callbar to dial. */
  e164: string;
}

const MAYBE_A_NUMBER = /\d(?:[\s\u00a0\-./()]{0,3}\d){5}/;

/** Longer text is cut into numbers' worth of pieces by the page anyway; this bounds one call. */
const MAX_TEXT = 10_000;

export function numbersIn(text: string, region: string): FoundNumber[] {
  if (text.length > MAX_TEXT || !MAYBE_A_NUMBER.test(text)) return [];
  return findNumbers(text, { defaultCountry: region as CountryCode, v2: true }).map((found) => ({
    start: found.startsAt,
    end: found.endsAt,
    e164: found.number.number,
  }));
}
