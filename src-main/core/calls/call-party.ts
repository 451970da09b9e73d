/**
 * The other side of a call as a person sees it: the number formatted for reading and, when the
 * directory knows it, the contact's name and company.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { CallParty } from '../../../src-shared/contract';
import type { CallDirectory } from './dial-target';
import { said } from '../text/said';
import { inEnglish } from '../text/translators';

export function identifyParty(
  number: string,
  options: { region: CountryCode; directory: CallDirectory },
): CallParty {
  const parsed = /^\+?[\d\s().-]{3,40}$/.test(number)
    ? parsePhoneNumberFromString(number, { defaultCountry: options.region })
    : undefined;
  // Short numbers are extensions, which libphonenumber would read as national numbers.
  const external =
    parsed?.isPossible() && number.replace(/\D/g, '').length > 6 ? parsed : undefined;
  const normalized = external?.number ?? number;
  const contact =
    options.directory.lookupByNumber(normalized) ??
    (normalized === number ? undefined : options.directory.lookupByNumber(number));
  const display = external
    ? external.formatInternational()
    : /^\d{2,6}$/.test(number)
      ? inEnglish(said('errors:display.extension', { number }))
      : number;
  return {
    number: normalized,
    display,
    ...(contact
      ? {
          name: contact.display_name,
          ...(contact.company ? { company: contact.company } : {}),
          contact_id: contact.id,
        }
      : {}),
  };
}
