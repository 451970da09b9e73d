/**
 * A country's name as a sentence says it, in a language: English with its article where English
 * puts one ("Germany", "the United States"); other languages as `Intl` names the region (their
 * catalogs word the sentence around it so that no article is needed).
 */
import { intlLocale, isLocale } from '../../../src-shared/i18n/locales';

const names = new Map<string, Intl.DisplayNames>();

/** English country names that take "the" in a sentence (Intl gives names without an article). */
const WITH_ARTICLE =
  /^(United |Netherlands|Philippines|Bahamas|Gambia|Maldives)|Republic$|Islands$/;

/** `country` (ISO 3166-1 alpha-2) named in `locale`: "the United States", "Vereinigte Staaten". */
export function regionName(country: string, locale = 'en'): string {
  const tag = isLocale(locale) ? intlLocale(locale) : 'en';
  let display = names.get(tag);
  if (!display) names.set(tag, (display = new Intl.DisplayNames([tag], { type: 'region' })));
  const name = display.of(country) ?? country;
  return tag === 'en' && WITH_ARTICLE.test(name) ? `the ${name}` : name;
}
