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
 *
 * Keys written right after the number behind a pause, as meeting invitations write a
 * conference's PIN ("+1 646 558 8656,,81234567890#"), go with it: Callbar dials the number and
 * names the keys to press once the call is answered. Only a pause with a key right behind it
 * counts: "030 1234567, 030 7654321" is two numbers, not one with keys.
 */
import {
  findNumbers,
  parseDigits,
  parseIncompletePhoneNumber,
  type CountryCode,
} from 'libphonenumber-js/min';
import { VISUAL_SEPARATORS, WRITTEN_DIGITS } from '../../../src-main/core/numbers/written-digits';

export interface FoundNumber {
  /** Where the number starts and ends in the text (UTF-16 offsets). */
  start: number;
  end: number;
  /** The `tel:` link the extension asks Callbar to dial (without an extension the text names). */
  link: string;
}

/**
 * Six digits close together, in any script the reader reads (Arabic-Indic, full-width: the core's
 * written-digits.ts), with at most three separators between two of them.
 */
const DIGIT = `[${WRITTEN_DIGITS}]`;
const MAYBE_A_NUMBER = new RegExp(`${DIGIT}(?:[${VISUAL_SEPARATORS}]{0,3}${DIGIT}){5}`);

/** A pause and the keys after it, right behind a number ("…,,81234567890#"); at most 40 keys. */
const KEY = `[${WRITTEN_DIGITS}*#]`;
const KEYS_AFTER = new RegExp(`^(?:,+|;)${KEY}(?:,*${KEY}){0,39}`);

/** A single comma and a space before what libphonenumber took for an extension: a list. */
const LISTED = /(?<!,),(?!,)\s+\S+$/;

/** Longer text is cut into numbers' worth of pieces by the page anyway; this bounds one call. */
const MAX_TEXT = 10_000;

export function numbersIn(text: string, region: string): FoundNumber[] {
  if (text.length > MAX_TEXT || !MAYBE_A_NUMBER.test(text)) return [];
  const found: FoundNumber[] = [];
  scan(text, region as CountryCode, 0, found);
  return found;
}

/**
 * libphonenumber reads what follows a comma as the number's extension: ",,81234567890#" (a
 * pause and keys, which go with the link), but also ", 030" in a list "030 1234567, 030
 * 7654321", which made "030 1234567, 030" one number and "7654321" another: a click on it
 * dialled a stranger (+49 7654 321). A single comma and a space end the number, and the text
 * after the comma is looked at again.
 */
function scan(text: string, region: CountryCode, from: number, found: FoundNumber[]): void {
  for (const match of findNumbers(text.slice(from), { defaultCountry: region, v2: true })) {
    const start = from + match.startsAt;
    let end = from + match.endsAt;
    const written = text.slice(start, end);
    const listed = match.number.ext === undefined ? null : LISTED.exec(written);
    if (listed) {
      end = start + listed.index;
      found.push({
        start,
        end,
        link: `tel:${writtenNumber(text.slice(start, end), match.number)}`,
      });
      scan(text, region, end + 1, found);
      return;
    }
    // The keys after a pause, those libphonenumber took for an extension and any after them.
    const pause = match.number.ext === undefined ? -1 : written.search(/[,;]/);
    const keys =
      (pause < 0 ? '' : written.slice(pause).replace(/\s/g, '')) +
      (KEYS_AFTER.exec(text.slice(end))?.[0] ?? '');
    const number = writtenNumber(pause < 0 ? written : written.slice(0, pause), match.number);
    // Keys written in another script's digits go as 0–9, as the number's own do.
    const dialled = keys.replace(/[^0-9*#,;]/g, (key) => parseDigits(key));
    found.push({ start, end, link: `tel:${number}${dialled.replaceAll('#', '%23')}` });
  }
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
