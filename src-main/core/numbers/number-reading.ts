/**
 * How Callbar reads a phone number, however it enters: typed in the search box or the contact
 * editor, pasted from the clipboard, clicked as a tel:/callto:/sip: link, given to the CLI, or a
 * cell of an imported file. One reader, so every path takes the same text to the same number and
 * refuses the same text with the same sentence.
 *
 * What it reads to: an outside number (E.164 through libphonenumber-js, a national one in the
 * user's region), a short number (an extension, a speed-dial code or an emergency number: the
 * caller decides which, it knows the directory), or a `*`/`#` service code. Everything else is
 * `invalid_number` with a sentence (by key) saying what is wrong.
 */
import {
  parseDigits,
  parsePhoneNumberFromString,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/max';
import { said, type Said } from '../text/said';
import { isEmergencyNumber } from './destination-class';
import { isDialLink, notANumber, parseDialLink, type LinkNumber } from './dial-link';
import { fitsNumberingPlan, internationalForm } from './parsed-number';
import {
  OTHER_SCRIPT_DIGITS,
  VISUAL_SEPARATORS as VISUAL_SEPARATOR_CHARACTERS,
} from './written-digits';

export interface ReadOptions {
  /** The user's region: numbers without a country code are read as its national numbers. */
  region: CountryCode;
  /** Letters are keypad digits ("1-800-FLOWERS"); off, letters are refused. */
  vanityNumbers?: boolean;
}

/** What a text reads as. */
export type NumberReading =
  /**
   * A number outside the phone system; `number.number` is its E.164. `postDial`: the keys written
   * to press once the call is answered (a conference's PIN), which click-to-dial cannot send.
   */
  | { kind: 'external'; number: PhoneNumber; extension?: string; postDial?: string }
  /** 2–6 digits not starting with 0: an extension, or a speed-dial code. */
  | { kind: 'short'; digits: string }
  /** An emergency number of the region (2–4 digits): never anything else. */
  | { kind: 'emergency'; digits: string }
  /** A `*`/`#` code for the phone system (call forwarding, voicemail…). */
  | { kind: 'code'; code: string };

/** Any script's decimal digit: every number is written with one. */
const DIGIT = /\p{Nd}/u;

/** True when `text` holds a digit of any script: without one it is no number. */
export function holdsDigit(text: string): boolean {
  return DIGIT.test(text);
}

/** Longer input is not a phone number whatever it holds. */
export const MAX_INPUT_LENGTH = 256;
/** E.164 allows 15 digits after the +. */
const MAX_E164_DIGITS = 15;
/**
 * Internal numbers (extensions, service codes) are short and never start with 0; longer digit
 * runs, and any starting with the trunk prefix 0, are national numbers.
 */
export const MAX_EXTENSION_DIGITS = 6;

/** Spaces and the dashes, dots, brackets and slashes people write between digit groups. */
const VISUAL_SEPARATORS = new RegExp(`[${VISUAL_SEPARATOR_CHARACTERS}]`, 'g');
/** Control and invisible format characters (bidi overrides, zero-width joiners…). */
const CONTROL = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\u2028\u2029]/u;
const TRAILING_EXTENSION =
  /^(.*?\d[^a-z]*?)\s*[,;]?\s*(?:ext\.?|extension|x)\s*[:.=]?\s*(\d{1,8})$/i;
/**
 * Where the keys to press after the call is answered begin, as diallers and meeting invitations
 * write them: a pause (`,` `;`, or `p`/`w` followed by keys only) after the number's digits
 * ("+1 646 558 8656,,81234567890#", "+49 30 1234567 p 12").
 */
const POST_DIAL = /^(.*?\d[^,;a-z]*?)\s*((?:[,;]|[pw](?=[\s\-.()/\d*#,;pw]*$)).*)$/i;
/** The keys after the pause, at most this many (a meeting's id and PIN with their pauses). */
const MAX_POST_DIAL = 40;
/**
 * An extension written after a number ("x 12", a link's `;ext=`): RFC 3966's phonedigits, so
 * digits and separators, at most this many digits (as "x 12345678" may be written). A link's is percent-decoded text a web page
 * chose: it is shown beside the number when Callbar asks, so nothing else may pass.
 */
const MAX_WRITTEN_EXTENSION_DIGITS = 8;

/**
 * Digits of other scripts that libphonenumber reads as 0–9 (written-digits.ts; full-width ones
 * NFKC already makes ASCII).
 */
const OTHER_DIGITS = new RegExp(`[${OTHER_SCRIPT_DIGITS}]`, 'g');

/** `text` in compatibility form (full-width becomes ASCII) with OTHER_DIGITS as 0–9. */
function asciiForm(text: string): string {
  return text.normalize('NFKC').replace(OTHER_DIGITS, (digit) => parseDigits(digit));
}

/** Fewer letters than this are no vanity number's word (libphonenumber's rule). */
const MIN_KEYPAD_LETTERS = 3;

const KEYPAD: Record<string, string> = Object.fromEntries(
  ['abc', 'def', 'ghi', 'jkl', 'mno', 'pqrs', 'tuv', 'wxyz'].flatMap((letters, index) =>
    [...letters].map((letter) => [letter, String(index + 2)]),
  ),
);

/**
 * Reads what a person typed, pasted or clicked, or what a file holds.
 * @throws CallbarError `invalid_number` (field `target`) with a sentence saying what is wrong.
 */
export function readNumber(input: string, options: ReadOptions): NumberReading {
  if (typeof input !== 'string') throw notANumber(String(input), said('errors:number.notText'));
  if (input.length > MAX_INPUT_LENGTH) {
    throw notANumber(input, said('errors:number.tooLong', { max: MAX_INPUT_LENGTH }));
  }
  if (CONTROL.test(input.replace(/[\t\n\r]/g, ' '))) {
    throw notANumber(visible(input), said('errors:number.controlCharacters'));
  }
  const text = asciiForm(input).trim();
  if (text === '') {
    throw notANumber(
      input,
      advised(said('errors:number.empty'), said('errors:number.typeANumber')),
    );
  }
  const written: LinkNumber = isDialLink(text) ? parseDialLink(text) : plainNumber(text);
  const extension = extensionDigits(written.extension, text);
  const link: LinkNumber = { ...written, ...(extension === undefined ? {} : { extension }) };
  if (CONTROL.test(link.number)) {
    throw notANumber(visible(text), said('errors:number.controlCharacters'));
  }
  const { number, postDial } = splitPostDial(link, text);
  const compact = toKeypad(asciiForm(number).replace(VISUAL_SEPARATORS, ''), text, options);
  if (compact === '') throw notANumber(text, said('errors:number.noDigits'));
  const reading =
    link.phoneContext !== undefined
      ? inContext(compact, link, text, options)
      : shape(compact, link.extension, text, options);
  if (postDial === undefined) return reading;
  // Keys after an extension or a code: a dialler's sequence Callbar cannot place.
  if (reading.kind !== 'external') throw notANumber(text, said('errors:number.postDialInside'));
  return { ...reading, postDial };
}

/**
 * The number, and the keys to press after the call is answered: written after a pause in the
 * number (POST_DIAL) or as a link's `;postd=` (RFC 2806). The keys are digits, * and #, a pause
 * shown as a comma; leading pauses go. Never part of what is dialled.
 */
function splitPostDial(link: LinkNumber, input: string): { number: string; postDial?: string } {
  const match = POST_DIAL.exec(link.number);
  const written = [match?.[2], link.postDial].filter((part) => part !== undefined).join(',');
  const number = match ? match[1]! : link.number;
  if (written === '') return { number };
  const keys = asciiForm(written)
    .replace(VISUAL_SEPARATORS, '')
    .replace(/[;pw]/gi, ',')
    .replace(/^,+|,+$/g, '');
  if (keys === '') return { number };
  const odd = /[^0-9*#,]/.exec(keys);
  if (odd) throw notANumber(input, said('errors:number.oddCharacter', { character: odd[0] }));
  if (keys.length > MAX_POST_DIAL) {
    throw notANumber(input, said('errors:number.postDialTooLong', { max: MAX_POST_DIAL }));
  }
  return { number, postDial: keys };
}

/**
 * A link's `;ext=` arrives percent-decoded (`%0A`, `%E2%80%AE` and any prose pass the raw link's
 * checks), and is shown beside the number where Callbar asks before dialling: digits only.
 */
function extensionDigits(extension: string | undefined, input: string): string | undefined {
  if (extension === undefined) return undefined;
  const digits = asciiForm(extension).replace(VISUAL_SEPARATORS, '');
  if (
    CONTROL.test(extension) ||
    !/^\d+$/.test(digits) ||
    digits.length > MAX_WRITTEN_EXTENSION_DIGITS
  ) {
    const max = MAX_WRITTEN_EXTENSION_DIGITS;
    throw notANumber(input, said('errors:number.extensionDigits', { max }));
  }
  return digits;
}

/** What is wrong, then what to do about it, as one phrase ("it is empty; type a number…"). */
export function advised(problem: Said, advice: Said): Said {
  return said('errors:number.advised', { problem, advice });
}

/** A plain number, with a written extension ("x 12", "ext. 12") split off. */
function plainNumber(text: string): LinkNumber {
  const match = TRAILING_EXTENSION.exec(text);
  if (match) return { scheme: 'tel', number: match[1]!, extension: match[2]! };
  return { scheme: 'tel', number: text };
}

/** The text with every control and invisible character shown as � (tabs and breaks: spaces). */
function visible(text: string): string {
  return text.replace(/[\t\n\r]/g, ' ').replace(new RegExp(CONTROL.source, 'gu'), '�');
}

/**
 * Digits, an optional leading + and * or #; letters only as keypad letters when allowed, and
 * only where they spell a vanity number's word (isKeypadWord).
 */
function toKeypad(number: string, input: string, options: ReadOptions): string {
  const odd = /[^0-9+*#a-z]/i.exec(number);
  if (odd) throw notANumber(input, said('errors:number.oddCharacter', { character: odd[0] }));
  if (/[a-z]/i.test(number)) {
    // Letters that spell no vanity word ("Tel. 030…") would dial another number than the one
    // written: refused, vanity numbers or not. (A pause "p"/"w" before keys is split off first.)
    if (!isKeypadWord(number)) throw notANumber(input, said('errors:number.letters'));
    if (!options.vanityNumbers) {
      throw notANumber(
        input,
        advised(said('errors:number.letters'), said('errors:number.turnOnVanity')),
      );
    }
    return number.replace(/[a-z]/gi, (letter) => KEYPAD[letter.toLowerCase()]!);
  }
  return number;
}

/**
 * Whether the letters of `number` (separators gone) can be a vanity number's keypad word
 * ("1-800-FLOWERS", "+1 800 GOT JUNK"): after the number's first digits, never before them (a
 * label: "Tel. 030…"), and at least three of them, as libphonenumber reads keypad letters
 * (VALID_ALPHA_PHONE_PATTERN): one or two ("p", "w", "T") are a dialler's pause or a note, not a
 * word.
 */
function isKeypadWord(number: string): boolean {
  const firstLetter = number.search(/[a-z]/i);
  const firstDigit = number.search(/\d/);
  if (firstDigit < 0 || firstLetter < firstDigit) return false;
  return (number.match(/[a-z]/gi)?.length ?? 0) >= MIN_KEYPAD_LETTERS;
}

/** RFC 3966 local numbers: a global prefix context makes them global; a domain one is internal. */
function inContext(
  compact: string,
  link: LinkNumber,
  input: string,
  options: ReadOptions,
): NumberReading {
  const context = link.phoneContext!.replace(VISUAL_SEPARATORS, '');
  if (context.startsWith('+')) {
    if (!/^\+\d{1,14}$/.test(context) || !/^\d+$/.test(compact)) {
      throw notANumber(input, said('errors:number.contextNotPrefix'));
    }
    return shape(`${context}${compact}`, link.extension, input, options);
  }
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(context)) {
    throw notANumber(input, said('errors:number.contextNeither'));
  }
  return shape(compact, link.extension, input, options);
}

function shape(
  compact: string,
  extension: string | undefined,
  input: string,
  options: ReadOptions,
): NumberReading {
  let number = compact;
  // An emergency number is one first, even where it looks like the international prefix (000 in
  // Australia) or a coworker's speed dial.
  if (/^\d{2,4}$/.test(number) && isEmergencyNumber(number, options.region)) {
    return { kind: 'emergency', digits: number };
  }
  if (/^00\d*$/.test(number)) number = internationalForm(number, options.region);
  if (number.lastIndexOf('+') > 0) throw notANumber(input, said('errors:number.plusFirst'));
  if (number.startsWith('+')) return external(number, extension, input, options);
  if (/[*#]/.test(number)) {
    // Up to 15 digits after the code: call forwarding carries a whole number (*21*number#).
    if (!/^[*#]{1,2}\d{1,6}[*#]?\d{0,15}#?$/.test(number)) {
      throw notANumber(input, said('errors:number.starHashCodes'));
    }
    return { kind: 'code', code: number };
  }
  if (number.length <= MAX_EXTENSION_DIGITS) {
    if (number.length < 2) throw notANumber(input, said('errors:number.tooShort'));
    // A leading 0 is the trunk prefix of a national number (030 123…), never an extension.
    if (!number.startsWith('0')) return { kind: 'short', digits: number };
  }
  return external(number, extension, input, options);
}

function external(
  number: string,
  extension: string | undefined,
  input: string,
  options: ReadOptions,
): NumberReading {
  const digits = number.replace(/^\+/, '');
  if (digits === '') throw notANumber(input, said('errors:number.noDigits'));
  if (!/^\d+$/.test(digits)) throw notANumber(input, said('errors:number.starHash'));
  if (digits.length > MAX_E164_DIGITS) {
    throw notANumber(input, said('errors:number.tooManyDigits', { max: MAX_E164_DIGITS }));
  }
  const parsed = parsePhoneNumberFromString(number, { defaultCountry: options.region });
  // Written without its country code, it must be a number the region's plan can hold: ten
  // digits starting 0 are possible in the US by length alone, and "030 1234567" (Berlin, written
  // nationally) was dialled as +1 030 123 4567, a number nobody has.
  const national = !number.startsWith('+') && parsed?.country === options.region;
  if (!parsed?.isPossible() || (national && !fitsNumberingPlan(parsed))) {
    throw notANumber(
      input,
      number.startsWith('+')
        ? said('errors:number.countryCodeOrLength')
        : advised(
            said('errors:number.incomplete', { region: options.region }),
            said('errors:number.addCountryCode'),
          ),
    );
  }
  if (parsed.number.length > MAX_E164_DIGITS + 1) {
    throw notANumber(input, said('errors:number.tooManyWithCountry', { max: MAX_E164_DIGITS }));
  }
  return { kind: 'external', number: parsed, ...(extension ? { extension } : {}) };
}
