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

/**
 * A number written with an international call prefix that starts with 00 (`digits`: digits
 * only), in its "+" form. 00 is the prefix in most regions, but several dial abroad with longer
 * ones that start the same way: Australia 0011, Colombia 009, Korea 00700, Kenya 000, Brazil
 * 0021… Read as "+" after the 00, "009 1 212 555 0188" in Colombia was India's +91 212 555 0188,
 * not New York. So the region's own prefix comes first (libphonenumber's reading in `region`,
 * when it is a valid number), and 00 otherwise ("0049…" in Singapore, whose prefixes 001–039
 * would read +9…).
 */
export function internationalForm(digits: string, region: CountryCode): string {
  const regional = digits.length <= MAX_DIGITS ? parsedNumber(digits, region) : undefined;
  if (regional?.isValid()) return regional.number;
  return `+${digits.slice(2)}`;
}
