/**
 * What a typed, pasted or clicked number dials, and what it is. External numbers become E.164
 * through libphonenumber-js (national ones in the default region); extensions and service codes
 * stay as they are; a speed-dial code is resolved through the directory, except that an emergency
 * number of the region is always the emergency number. Every target is classified
 * (destination-class.ts). Everything else is a typed error with a sentence saying what is wrong,
 * never an exception of another kind.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { DialTarget, DirectoryContact } from '../../../src-shared/contract';
import { isDialLink, notANumber, parseDialLink, type LinkNumber } from './dial-link';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';
import {
  emergencyClass,
  extensionClass,
  externalClass,
  isEmergencyNumber,
  serviceCodeClass,
} from './destination-class';

/** The two directory questions calls ask (answered by core/directory; injected). */
export interface CallDirectory {
  lookupByNumber(number: string): DirectoryContact | undefined;
  findBySpeedDial(code: number): DirectoryContact | undefined;
}

export const NO_DIRECTORY: CallDirectory = {
  lookupByNumber: () => undefined,
  findBySpeedDial: () => undefined,
};

export interface DialTargetOptions {
  /** Default region for numbers without a country code. */
  region: CountryCode;
  /** Letters are keypad digits ("1-800-FLOWERS"); off, letters are refused. */
  vanityNumbers?: boolean;
  directory?: CallDirectory;
}

/** Longer input is not a phone number whatever it holds. */
export const MAX_INPUT_LENGTH = 256;
/** E.164 allows 15 digits after the +. */
const MAX_E164_DIGITS = 15;
/**
 * Internal numbers (extensions, service codes) are short and never start with 0; longer digit
 * runs, and any starting with the trunk prefix 0, are national numbers.
 */
const MAX_EXTENSION_DIGITS = 6;

/** Spaces and the dashes, dots, brackets and slashes people write between digit groups. */
const VISUAL_SEPARATORS = /[\s\-.()/\u2010-\u2015\u2212\u30fc\uff0d]/g;
/** Control and invisible format characters (bidi overrides, zero-width joiners…). */
const CONTROL = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\u2028\u2029]/u;
const TRAILING_EXTENSION =
  /^(.*?\d[^a-z]*?)\s*[,;]?\s*(?:ext\.?|extension|x)\s*[:.=]?\s*(\d{1,8})$/i;

const KEYPAD: Record<string, string> = Object.fromEntries(
  ['abc', 'def', 'ghi', 'jkl', 'mno', 'pqrs', 'tuv', 'wxyz'].flatMap((letters, index) =>
    [...letters].map((letter) => [letter, String(index + 2)]),
  ),
);

/**
 * Parses what a person typed, pasted or clicked.
 * @throws CallbarError `invalid_number` (field `target`) with a sentence saying what is wrong.
 */
export function parseDialTarget(input: string, options: DialTargetOptions): DialTarget {
  if (typeof input !== 'string') throw notANumber(String(input), said('errors:number.notText'));
  if (input.length > MAX_INPUT_LENGTH) {
    throw notANumber(input, said('errors:number.tooLong', { max: MAX_INPUT_LENGTH }));
  }
  if (CONTROL.test(input.replace(/[\t\n\r]/g, ' '))) {
    throw notANumber(visible(input), said('errors:number.controlCharacters'));
  }
  const text = input.normalize('NFKC').trim();
  if (text === '')
    throw notANumber(
      input,
      advised(said('errors:number.empty'), said('errors:number.typeANumber')),
    );
  const link: LinkNumber = isDialLink(text) ? parseDialLink(text) : plainNumber(text);
  if (CONTROL.test(link.number)) {
    throw notANumber(visible(text), said('errors:number.controlCharacters'));
  }
  const compact = toKeypad(
    link.number.normalize('NFKC').replace(VISUAL_SEPARATORS, ''),
    text,
    options,
  );
  if (compact === '') throw notANumber(text, said('errors:number.noDigits'));
  if (link.phoneContext !== undefined) return inContext(compact, link, text, options);
  return classify(compact, link.extension, text, options);
}

/** A plain number, with a written extension ("x 12", "ext. 12") split off. */
function plainNumber(text: string): LinkNumber {
  const match = TRAILING_EXTENSION.exec(text);
  if (match) return { scheme: 'tel', number: match[1]!, extension: match[2]! };
  return { scheme: 'tel', number: text };
}

/** What is wrong, then what to do about it, as one phrase ("it is empty; type a number…"). */
function advised(problem: Said, advice: Said): Said {
  return said('errors:number.advised', { problem, advice });
}

function visible(text: string): string {
  return text.replace(CONTROL, '�').replace(/[\t\n\r]/g, ' ');
}

/** Digits, an optional leading + and * or #; letters only as keypad letters when allowed. */
function toKeypad(number: string, input: string, options: DialTargetOptions): string {
  const odd = /[^0-9+*#a-z]/i.exec(number);
  if (odd) throw notANumber(input, said('errors:number.oddCharacter', { character: odd[0] }));
  if (/[a-z]/i.test(number)) {
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

/** RFC 3966 local numbers: a global prefix context makes them global; a domain one is internal. */
function inContext(
  compact: string,
  link: LinkNumber,
  input: string,
  options: DialTargetOptions,
): DialTarget {
  const context = link.phoneContext!.replace(VISUAL_SEPARATORS, '');
  if (context.startsWith('+')) {
    if (!/^\+\d{1,14}$/.test(context) || !/^\d+$/.test(compact)) {
      throw notANumber(input, said('errors:number.contextNotPrefix'));
    }
    return classify(`${context}${compact}`, link.extension, input, options);
  }
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(context)) {
    throw notANumber(input, said('errors:number.contextNeither'));
  }
  return classify(compact, link.extension, input, options);
}

function classify(
  compact: string,
  extension: string | undefined,
  input: string,
  options: DialTargetOptions,
): DialTarget {
  let number = compact;
  // An emergency number is one first, even where it looks like the international prefix (000 in
  // Australia) or a coworker's speed dial.
  if (/^\d{2,4}$/.test(number) && isEmergencyNumber(number, options.region)) {
    const shadowed = /^\d{3,4}$/.test(number)
      ? options.directory?.findBySpeedDial(Number(number))
      : undefined;
    return emergency(number, shadowed, options);
  }
  if (number.startsWith('00')) number = `+${number.slice(2)}`;
  if (number.lastIndexOf('+') > 0) throw notANumber(input, said('errors:number.plusFirst'));
  if (number.startsWith('+')) return external(number, extension, input, options);
  if (/[*#]/.test(number)) {
    // Up to 15 digits after the code: call forwarding carries a whole number (*21*number#).
    if (!/^[*#]{1,2}\d{1,6}[*#]?\d{0,15}#?$/.test(number)) {
      throw notANumber(input, said('errors:number.starHashCodes'));
    }
    return {
      destination: number,
      display: inEnglish(said('errors:display.code', { number })),
      kind: 'extension',
      ...serviceCodeClass(),
    };
  }
  if (number.length <= MAX_EXTENSION_DIGITS) {
    if (number.length < 2) throw notANumber(input, said('errors:number.tooShort'));
    const contact = /^\d{3,4}$/.test(number)
      ? options.directory?.findBySpeedDial(Number(number))
      : undefined;
    if (contact) return speedDial(number, contact, options);
    // A leading 0 is the trunk prefix of a national number (030 123…), never an extension.
    if (number.startsWith('0')) return external(number, extension, input, options);
    return internal(number);
  }
  return external(number, extension, input, options);
}

function internal(number: string): DialTarget {
  return {
    destination: number,
    display: inEnglish(said('errors:display.extension', { number })),
    kind: 'extension',
    ...extensionClass(),
  };
}

/**
 * An emergency number of the region: never a speed dial, whoever gave a contact the same code
 * (the contact is named in the note, so the person sees why their speed dial does not apply).
 */
function emergency(
  number: string,
  shadowed: DirectoryContact | undefined,
  options: DialTargetOptions,
): DialTarget {
  return {
    destination: number,
    display: inEnglish(said('errors:display.emergency', { number })),
    kind: 'extension',
    ...emergencyClass(options.region),
    ...(shadowed
      ? {
          note: inEnglish(
            said('errors:number.speedDialIsEmergency', { number, name: shadowed.display_name }),
          ),
        }
      : {}),
  };
}

function speedDial(
  code: string,
  contact: DirectoryContact,
  options: DialTargetOptions,
): DialTarget {
  let resolved: DialTarget | undefined;
  try {
    const { region, vanityNumbers } = options;
    resolved = parseDialTarget(contact.number, { region, vanityNumbers });
  } catch {
    // A contact number that does not parse is still reachable through the code itself.
  }
  return {
    ...(resolved ?? internal(code)),
    display: inEnglish(said('errors:display.speedDial', { name: contact.display_name, code })),
    kind: 'speed-dial',
    contact,
  };
}

function external(
  number: string,
  extension: string | undefined,
  input: string,
  options: DialTargetOptions,
): DialTarget {
  const digits = number.replace(/^\+/, '');
  if (digits === '') throw notANumber(input, said('errors:number.noDigits'));
  if (!/^\d+$/.test(digits)) throw notANumber(input, said('errors:number.starHash'));
  if (digits.length > MAX_E164_DIGITS) {
    throw notANumber(input, said('errors:number.tooManyDigits', { max: MAX_E164_DIGITS }));
  }
  const parsed = parsePhoneNumberFromString(number, { defaultCountry: options.region });
  if (!parsed?.isPossible()) {
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
  const destination = parsed.number;
  if (destination.length > MAX_E164_DIGITS + 1) {
    throw notANumber(input, said('errors:number.tooManyWithCountry', { max: MAX_E164_DIGITS }));
  }
  const contact = options.directory?.lookupByNumber(destination);
  return {
    destination,
    display: extension
      ? inEnglish(
          said('errors:display.withExtension', {
            number: parsed.formatInternational(),
            extension,
          }),
        )
      : parsed.formatInternational(),
    kind: 'external',
    e164: destination,
    ...(extension ? { extension } : {}),
    ...externalClass(parsed, options.region),
    ...(contact ? { contact } : {}),
  };
}
