/**
 * The characters a phone number is written with, as the reader (number-reading.ts) reads them,
 * as regular-expression character-class bodies. No import: the browser extension's page scanner
 * (browser-extension/src/content/number-finder.ts) is built from the same definition, so a
 * number the reader dials is one the extension finds on a page.
 */

/**
 * Digits of other scripts that libphonenumber reads as 0–9 (its DIGITS table): Arabic-Indic and
 * Eastern Arabic-Indic, as numbers are written on Arabic and Persian pages.
 */
export const OTHER_SCRIPT_DIGITS = '\u0660-\u0669\u06f0-\u06f9';

/** Full-width digits (NFKC makes them ASCII), as East Asian text writes them. */
const FULL_WIDTH_DIGITS = '\uff10-\uff19';

/** Every digit a number may be written with. */
export const WRITTEN_DIGITS = `0-9${FULL_WIDTH_DIGITS}${OTHER_SCRIPT_DIGITS}`;

/**
 * Spaces and the dashes, dots, brackets and slashes people write between digit groups (any
 * dash: hyphens, en and em dashes, the minus sign, the katakana prolonged mark and full-width
 * hyphen-minus of Japanese text).
 */
export const VISUAL_SEPARATORS = '\\s\\-.()/\u2010-\u2015\u2212\u30fc\uff0d';
