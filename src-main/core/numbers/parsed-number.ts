/**
 * libphonenumber's reading of a number's digits, kept: showing a number (number-format.ts) and
 * comparing it (number-match.ts) read the same few hundred numbers (the call log's, the contacts
 * they may be) at every start, and a reading costs far more than looking it up. Kept by the
 * digits alone (a leading "+" kept): separators change nothing libphonenumber reads. Emptied
 * when full; a reading is never changed by its users.
 */
import {
  Metadata,
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

/** libphonenumber's pattern of each region's international call prefix, once asked for. */
const iddPatterns = new Map<CountryCode, RegExp>();

function iddPattern(region: CountryCode): RegExp {
  let pattern = iddPatterns.get(region);
  if (!pattern) {
    const metadata = new Metadata();
    metadata.selectNumberingPlan(region);
    pattern = new RegExp(`^(?:${metadata.numberingPlan?.IDDPrefix() ?? '00'})`);
    iddPatterns.set(region, pattern);
  }
  return pattern;
}

/**
 * The international call prefixes `digits` (digits only) may start with in `region`, as their
 * lengths: the region's own, as libphonenumber's reading (the reader's) strips it (011 in the
 * US, 0011 in Australia, 009 in Colombia, 00 in Germany), then 00, which the reader takes in
 * every region (internationalForm). Each only with a country code's first digit after it (never
 * 0): what a typed query may mean, both where the two differ.
 */
export function internationalPrefixes(digits: string, region: CountryCode): number[] {
  const own = iddPattern(region).exec(digits)?.[0].length ?? 0;
  const lengths: number[] = [];
  for (const length of [own, digits.startsWith('00') ? 2 : 0]) {
    const next = digits.charCodeAt(length);
    if (length > 0 && next >= 49 && next <= 57 && !lengths.includes(length)) lengths.push(length);
  }
  return lengths;
}

/**
 * Whether a number starting with the digit `first` may start with an international call prefix
 * in `region` (internationalPrefixes): 0 for 00, else the first digit of the region's own (any
 * digit when its pattern does not start with one). Lets a caller skip the rest.
 */
export function mayStartInternationalPrefix(first: string, region: CountryCode): boolean {
  if (first === '0') return true;
  const start = /^\^\(\?:(.)/.exec(iddPattern(region).source)![1]!;
  return start === first || !/\d/.test(start);
}

/**
 * The length of the international call prefix a whole number's `digits` were written with in
 * `region`, 0 for none: of internationalPrefixes, the region's own where the number reads as a
 * valid one through it, else 00 (internationalForm's rule).
 */
export function internationalPrefixOf(digits: string, region: CountryCode): number {
  const [first = 0, second] = internationalPrefixes(digits, region);
  if (second === undefined) return first;
  return parsedNumber(digits, region)?.isValid() ? first : second;
}

/** libphonenumber's pattern of each country's national numbers, once asked for. */
const nationalPatterns = new Map<string, RegExp>();

/**
 * Whether `parsed`'s national number is one its country's numbering plan can hold (libphonenumber's
 * national number pattern: no US number starts with 0 or 1), which a possible length alone does
 * not say. Looser than isValid(), which knows only the ranges in use when the metadata was made.
 */
export function fitsNumberingPlan(parsed: PhoneNumber): boolean {
  const plan = parsed.country ?? parsed.countryCallingCode;
  let pattern = nationalPatterns.get(plan);
  if (!pattern) {
    const metadata = new Metadata();
    metadata.selectNumberingPlan(plan as CountryCode);
    const national = (
      metadata.numberingPlan as unknown as { nationalNumberPattern(): string }
    ).nationalNumberPattern();
    pattern = new RegExp(`^(?:${national})$`);
    nationalPatterns.set(plan, pattern);
  }
  return pattern.test(parsed.nationalNumber);
}
