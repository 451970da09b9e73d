/**
 * How a phone number is shown to a person, everywhere Callbar shows one (the window, the tray,
 * notifications, the CLI's tables): national for the user's own country ("030 1234567" in
 * Germany), international otherwise ("+44 20 7946 0205"), as libphonenumber groups it. Short
 * numbers (extensions, speed dials) and text that is no number stay as they are written. The
 * exact E.164 is not for reading: it is shown only where it is the point (a confirmation's
 * "Dials" line, `--json`, exports).
 */
import { getCountryCallingCode, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
import { internationalForm, parsedNumber } from './parsed-number';

/** What a stored or received number may look like to be read for showing. */
const NUMBER_LIKE = /^\+?[\d\s().\-/\u00a0]{3,40}$/;
/** Up to this many digits a number is an extension or a code, shown as it is. */
const SHORT_DIGITS = 6;

/** A number read by libphonenumber, as a person reads it in `region`. */
export function shownParsed(parsed: PhoneNumber, region: CountryCode): string {
  const home =
    parsed.country === region ||
    (parsed.country === undefined && parsed.countryCallingCode === getCountryCallingCode(region));
  return home ? parsed.formatNational() : parsed.formatInternational();
}

/**
 * A number as it is stored or was received ("+49301234567", "0301234567", "+1 (617) 555-0137"),
 * as a person reads it in `region`; an extension, or text that does not read as a number, as it
 * is (trimmed).
 */
export function shownNumber(number: string, region: CountryCode): string {
  const text = number.trim();
  if (!NUMBER_LIKE.test(text)) return text;
  const digits = text.replace(/\D/g, '');
  if (digits.length <= SHORT_DIGITS && !text.startsWith('+')) return text;
  const international = text.startsWith('00') ? internationalForm(digits, region) : text;
  const parsed = parsedNumber(international, region);
  return parsed?.isPossible() ? shownParsed(parsed, region) : text;
}

/**
 * The numbers shown for a region, remembered: a search answer shows the same contacts' numbers
 * keystroke after keystroke, and reading one with libphonenumber takes tens of microseconds.
 * One per region; it forgets everything past `max` numbers (a long session's scrolling).
 */
export class NumberDisplay {
  readonly region: CountryCode;
  readonly #max: number;
  #known = new Map<string, string>();

  constructor(region: CountryCode, max = 20_000) {
    this.region = region;
    this.#max = max;
  }

  of(number: string): string {
    let shown = this.#known.get(number);
    if (shown === undefined) {
      if (this.#known.size >= this.#max) this.#known = new Map();
      shown = shownNumber(number, this.region);
      this.#known.set(number, shown);
    }
    return shown;
  }
}
