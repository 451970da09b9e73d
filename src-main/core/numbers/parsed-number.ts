/**
 * libphonenumber's reading of a number's digits, kept: showing a number (number-format.ts) and
 * comparing it (number-match.ts) read the same few hundred numbers (the call log's, the contacts
 * they may be) at every start, and a reading costs far more than looking it up. Kept by the
 * digits alone (a leading "+" kept): separators change nothing libphonenumber reads. Emptied
 * when full; a reading is never changed by its users.
 */
import {
  parsePhoneNumberFromString,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/max';

const kept = new Map<string, PhoneNumber | undefined>();
const KEPT_AT_MOST = 4_096;
/** Up to this many digits a text is read at all (E.164 has 15; a few more for trunk prefixes). */
const MAX_DIGITS = 17;

/**
 * `text` (digits and separators, maybe a leading "+") read in `region`, or undefined when it
 * reads as no number.
 */
export function parsedNumber(text: string, region: CountryCode): PhoneNumber | undefined {
  const digits = text.replace(/\D/g, '');
  if (digits.length === 0 || digits.length > MAX_DIGITS) return undefined;
  const key = `${region}${text.trimStart().startsWith('+') ? '+' : ''}${digits}`;
  if (kept.has(key)) return kept.get(key);
  if (kept.size >= KEPT_AT_MOST) kept.clear();
  const parsed = parsePhoneNumberFromString(key.slice(region.length), { defaultCountry: region });
  kept.set(key, parsed);
  return parsed;
}
