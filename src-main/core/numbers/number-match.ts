/**
 * When two numbers are the same number, and who a number belongs to. The rule, for the caller
 * shown in the call bar, a notification and the recent calls, and for a number typed in search:
 *
 * - Both numbers are read in the user's region; two numbers whose country is known (written
 *   with +/00, or a complete national number of the region) are the same only when their E.164
 *   is ("+44 20 7123 4567" is never "+49 30 1234567", however their last digits agree).
 * - Only where one side's country is not known (a number written without its country code that
 *   is not a complete number of the region: a caller id without its area code, a contact stored
 *   in another country's national form) may the two share an ending instead: 7 digits or more.
 * - Extensions and other short numbers match only themselves.
 * - A number that names two different people (two candidates equally good) names nobody: the
 *   number is shown, not a guess.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import { internationalForm, parsedNumber } from './parsed-number';

/** The shortest ending two numbers must share when one side's country is not known. */
export const ENDING_DIGITS = 7;
/** Up to this many digits a number is an extension or a code. */
const SHORT_DIGITS = 6;

/** A number read once for comparing. */
export interface ComparableNumber {
  /** Its digits as written (no + or separators). */
  digits: string;
  /** Its E.164, when its country is known. */
  e164?: string;
  /** An extension or code: matches only the same digits. */
  short: boolean;
}

/** Reads `number` for comparing, in `region`. */
export function comparableNumber(number: string, region: CountryCode): ComparableNumber {
  const text = number.trim();
  const digits = text.replace(/\D/g, '');
  const plus = text.startsWith('+') || digits.startsWith('00');
  if (!plus && digits.length <= SHORT_DIGITS) return { digits, short: true };
  const international = text.startsWith('+')
    ? `+${digits}`
    : plus
      ? internationalForm(digits, region)
      : digits;
  const parsed = parsedNumber(international, region);
  // Written with its country code: known when possible; written nationally: known when it is a
  // complete number of the region.
  const known = parsed && (plus ? parsed.isPossible() : parsed.isValid());
  return known ? { digits, e164: parsed.number, short: false } : { digits, short: false };
}

/**
 * How well two numbers match: Infinity when they are the same number, the length of the
 * ending they share when only that may match (7 digits or more), 0 when they do not match.
 */
export function numberMatch(a: ComparableNumber, b: ComparableNumber): number {
  if (a.short || b.short) return a.short && b.short && a.digits === b.digits ? Infinity : 0;
  if (a.e164 !== undefined && b.e164 !== undefined) return a.e164 === b.e164 ? Infinity : 0;
  if (a.digits === b.digits) return Infinity;
  const ending = commonEnding(a.e164?.slice(1) ?? a.digits, b.e164?.slice(1) ?? b.digits);
  return ending >= ENDING_DIGITS ? ending : 0;
}

/** Whether two numbers, read in `region`, are the same number (an ending match is not). */
export function sameNumber(a: string, b: string, region: CountryCode): boolean {
  return numberMatch(comparableNumber(a, region), comparableNumber(b, region)) === Infinity;
}

/**
 * Which of `candidates` (best first) `number` belongs to: among the candidates with the best
 * match (the same number, else the longest shared ending allowed), the first; none when those
 * are different people (`personOf` tells them apart: the same person may be in two phonebooks),
 * or when nobody matches.
 */
export function whoseNumber<T>(
  number: string,
  candidates: readonly T[],
  region: CountryCode,
  numbersOf: (candidate: T) => readonly (string | null | undefined)[],
  personOf: (candidate: T) => string,
): T | undefined {
  if (candidates.length === 0) return undefined;
  const wanted = comparableNumber(number, region);
  if (wanted.digits === '') return undefined;
  let best: T | undefined;
  let bestScore = 0;
  let ambiguous = false;
  for (const candidate of candidates) {
    let score = 0;
    for (const each of numbersOf(candidate)) {
      if (each) score = Math.max(score, numberMatch(wanted, comparableNumber(each, region)));
    }
    if (score === 0 || score < bestScore) continue;
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
      ambiguous = false;
    } else if (!samePerson(personOf(best!), personOf(candidate))) {
      ambiguous = true;
    }
  }
  return ambiguous ? undefined : best;
}

function samePerson(a: string, b: string): boolean {
  const fold = (text: string) => text.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
  return fold(a) === fold(b);
}

/** How many digits two digit strings share at their end. */
function commonEnding(a: string, b: string): number {
  let common = 0;
  while (
    common < a.length &&
    common < b.length &&
    a[a.length - 1 - common] === b[b.length - 1 - common]
  ) {
    common++;
  }
  return common;
}
