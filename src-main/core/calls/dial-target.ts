/**
 * What a typed, pasted or clicked number dials, and what it is. The number is read by the one
 * reader (numbers/number-reading.ts: E.164 for outside numbers, in the user's region); a short
 * number is a speed dial when the directory has the code, else an extension, except that an
 * emergency number of the region is always the emergency number. Every target is classified
 * (numbers/destination-class.ts) and shown as numbers are shown (numbers/number-format.ts).
 * Everything else is a typed error with a sentence saying what is wrong, never an exception of
 * another kind.
 */
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import type { DialTarget, DirectoryContact } from '../../../src-shared/contract';
import { said } from '../text/said';
import { inEnglish } from '../text/translators';
import {
  emergencyClass,
  extensionClass,
  externalClass,
  serviceCodeClass,
} from '../numbers/destination-class';
import { shownParsed } from '../numbers/number-format';
import { readNumber } from '../numbers/number-reading';

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

export { MAX_INPUT_LENGTH } from '../numbers/number-reading';

/**
 * Parses what a person typed, pasted or clicked.
 * @throws CallbarError `invalid_number` (field `target`) with a sentence saying what is wrong.
 */
export function parseDialTarget(input: string, options: DialTargetOptions): DialTarget {
  const { region, vanityNumbers } = options;
  const reading = readNumber(input, { region, vanityNumbers });
  switch (reading.kind) {
    case 'emergency': {
      const shadowed = /^\d{3,4}$/.test(reading.digits)
        ? options.directory?.findBySpeedDial(Number(reading.digits))
        : undefined;
      return emergency(reading.digits, shadowed, options);
    }
    case 'code':
      return {
        destination: reading.code,
        display: inEnglish(said('errors:display.code', { number: reading.code })),
        kind: 'extension',
        ...serviceCodeClass(),
      };
    case 'short': {
      const contact = /^\d{3,4}$/.test(reading.digits)
        ? options.directory?.findBySpeedDial(Number(reading.digits))
        : undefined;
      return contact ? speedDial(reading.digits, contact, options) : internal(reading.digits);
    }
    case 'external':
      return external(reading.number, reading.extension, reading.postDial, options);
  }
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
  const dialled = resolved ?? internal(code);
  return {
    ...dialled,
    display: inEnglish(said('errors:display.speedDial', { name: contact.display_name, code })),
    dials_shown: dialled.display,
    kind: 'speed-dial',
    contact,
  };
}

function external(
  parsed: PhoneNumber,
  extension: string | undefined,
  postDial: string | undefined,
  options: DialTargetOptions,
): DialTarget {
  const destination = parsed.number;
  const shown = shownParsed(parsed, options.region);
  const contact = options.directory?.lookupByNumber(destination);
  const number = extension
    ? inEnglish(said('errors:display.withExtension', { number: shown, extension }))
    : shown;
  return {
    destination,
    display: postDial
      ? inEnglish(said('errors:display.thenKeys', { number, keys: postDial }))
      : number,
    kind: 'external',
    e164: destination,
    ...(extension ? { extension } : {}),
    ...(postDial
      ? {
          post_dial: postDial,
          // Click-to-dial sends no keys: the person must press them.
          note: inEnglish(said('errors:number.postDialNote', { keys: postDial })),
        }
      : {}),
    ...externalClass(parsed, options.region),
    ...(contact ? { contact } : {}),
  };
}
