/**
 * A contact's number as Callbar stores it, whichever way it enters (the contact editor in the
 * window, `callbar contacts add`, a CSV or vCard import, "Add to contacts" from a call): read by
 * the one reader (number-reading.ts) in the user's region, an outside number is stored in E.164
 * and an extension as its digits. A text that is no number is refused with the reader's sentence,
 * the same in the editor and on an import's row; a service code is not a contact's number.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { readNumber } from './number-reading';

export interface ContactNumber {
  /** E.164, or an extension's digits. */
  number: string;
  /** An extension written after an outside number ("x 12"): the platform's numbers hold none. */
  droppedExtension?: string;
}

/**
 * @throws CallbarError `invalid_number` saying what is wrong (`field`: the contact's field).
 */
export function readContactNumber(
  text: string,
  region: CountryCode,
  field: 'number' | 'secondary_number' = 'number',
): ContactNumber {
  let reading;
  try {
    reading = readNumber(text, { region });
  } catch (error) {
    if (error instanceof CallbarError) {
      throw new CallbarError(error.code, error.saying, { field, cause: error });
    }
    throw error;
  }
  switch (reading.kind) {
    case 'external':
      if (reading.postDial) {
        throw new CallbarError(
          'invalid_number',
          said('errors:number.notANumber', {
            shown: text.trim(),
            why: said('errors:number.postDialInContact', { keys: reading.postDial }),
          }),
          { field },
        );
      }
      return {
        number: reading.number.number,
        ...(reading.extension ? { droppedExtension: reading.extension } : {}),
      };
    case 'short':
    case 'emergency':
      return { number: reading.digits };
    case 'code':
      throw new CallbarError(
        'invalid_number',
        said('errors:number.notANumber', {
          shown: text.trim(),
          why: said('errors:number.serviceCode'),
        }),
        { field },
      );
  }
}
