/**
 * Numbers, dates, times and durations through `Intl`, in a locale's conventions (`intlLocale`,
 * so the pseudo-locales format as English). Formatters are cached per locale and options.
 */
import { intlLocale, type Locale } from './locales';

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>();

function cached<Format extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>(
  kind: string,
  locale: Locale,
  options: object,
  make: (tag: string) => Format,
): Format {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) {
    format = make(intlLocale(locale));
    cache.set(key, format);
  }
  return format as Format;
}

/** A number: `1,234` in English, `1.234` in German. */
export function formatNumber(
  locale: Locale,
  value: number,
  options: Intl.NumberFormatOptions = {},
): string {
  return cached('number', locale, options, (tag) => new Intl.NumberFormat(tag, options)).format(
    value,
  );
}

/** A date and/or time (default: date and time, medium). */
export function formatDateTime(
  locale: Locale,
  date: Date,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string {
  return cached('date', locale, options, (tag) => new Intl.DateTimeFormat(tag, options)).format(
    date,
  );
}

/** Items joined as the locale joins a list: `A, B and C`, `A, B und C`. */
export function formatList(
  locale: Locale,
  items: readonly string[],
  options: Intl.ListFormatOptions = { type: 'conjunction' },
): string {
  return cached('list', locale, options, (tag) => new Intl.ListFormat(tag, options)).format(items);
}

/**
 * A call's length as a clock reads: `0:07`, `12:45`, `1:02:03` (digits in the locale's numbering
 * system; the same in English and German).
 */
export function formatClockDuration(locale: Locale, ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (value: number) => formatNumber(locale, value, { minimumIntegerDigits: 2 });
  const one = (value: number) => formatNumber(locale, value);
  return hours > 0
    ? `${one(hours)}:${two(minutes)}:${two(seconds)}`
    : `${one(minutes)}:${two(seconds)}`;
}

/**
 * A length of time in words, largest units first, with the locale's unit names: `1 hr, 5 min`,
 * `1 Std., 5 Min.`; seconds only under a minute.
 */
export function formatDuration(
  locale: Locale,
  ms: number,
  unitDisplay: 'long' | 'short' | 'narrow' = 'short',
): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const parts: [number, string][] = [
    [Math.floor(total / 86400), 'day'],
    [Math.floor((total % 86400) / 3600), 'hour'],
    [Math.floor((total % 3600) / 60), 'minute'],
  ];
  if (total < 60) parts.push([total, 'second']);
  const words = parts
    .filter(([value]) => value > 0)
    .map(([value, unit]) => formatNumber(locale, value, { style: 'unit', unit, unitDisplay }));
  return words.length > 0
    ? formatList(locale, words, { type: 'unit', style: 'short' })
    : formatNumber(locale, 0, { style: 'unit', unit: 'second', unitDisplay });
}
