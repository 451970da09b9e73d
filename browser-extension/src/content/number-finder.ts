/**
 * Phone numbers in a piece of text, found by libphonenumber's findNumbers (the "valid" leniency)
 * in the user's region, which Callbar tells the extension. A cheap test first: text without six
 * digits close together holds no number, and most of a page's text is like that.
 *
 * What Callbar is asked to dial is the number as the page wrote it, not as the extension read it:
 * a number written without its country code ("030 1234567") goes as its digits, and Callbar reads
 * them in the region it has when the person clicks (one reader of numbers, core's, for every
 * path). Read here, the link would carry the region the page was marked in: a country changed in
 * Callbar since then dialled the old country's number. A number written with its country code
 * (+49 …) means the same in every region and goes in international form.
 */
import { findNumbers, parseIncompletePhoneNumber, type CountryCode } from 'libphonenumber-js/min';

export interface FoundNumber {
  /** Where the number starts and ends in the text (UTF-16 offsets). */
  start: number;
  end: number;
  /** The `tel:` link the extension asks Callbar to dial (without an extension the text names). */
  link: string;
}

const MAYBE_A_NUMBER = /\d(?:[\s\u00a0\-./()]{0,3}\d){5}/;

/** Longer text is cut into numbers' worth of pieces by the page anyway; this bounds one call. */
const MAX_TEXT = 10_000;

export function numbersIn(text: string, region: string): FoundNumber[] {
  if (text.length > MAX_TEXT || !MAYBE_A_NUMBER.test(text)) return [];
  return findNumbers(text, { defaultCountry: region as CountryCode, v2: true }).map((found) => ({
    start: found.startsAt,
    end: found.endsAt,
    link: `tel:${writtenNumber(text.slice(found.startsAt, found.endsAt), found.number)}`,
  }));
}

/**
 * The number of a found text: in international form when the text starts with its country code
 * (+…), otherwise its own digits (a national prefix or an international call prefix kept, as
 * written), without the extension's digits at its end.
 */
function writtenNumber(text: string, number: { number: string; ext?: string }): string {
  const digits = parseIncompletePhoneNumber(text);
  if (digits.startsWith('+')) return number.number;
  return number.ext && digits.endsWith(number.ext)
    ? digits.slice(0, digits.length - number.ext.length)
    : digits;
}
