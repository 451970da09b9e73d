/**
 * The other side of a call as a person sees it: the number shown as numbers are shown (national
 * in the user's country, numbers/number-format.ts) and, when the directory knows it by the one
 * matching rule (numbers/number-match.ts), the contact's name and company.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import type { CallParty } from '../../../src-shared/contract';
import type { CallDirectory } from './dial-target';
import { readCallerId } from '../numbers/caller-id';
import { isEmergencyNumber } from '../numbers/destination-class';
import { comparableNumber } from '../numbers/number-match';
import { shownNumber } from '../numbers/number-format';
import { said } from '../text/said';
import { inEnglish } from '../text/translators';

/** The longest caller id read as a number (the platform's are bounded where they enter). */
const MAX_CALLER_ID = 64;

/** The number as a call's party keeps it: E.164 when its country is known, else as received. */
export function partyNumber(number: string, region: CountryCode): string {
  return comparableNumber(number, region).e164 ?? number.trim();
}

/**
 * How a party's number is shown: an emergency number of the region as one (as the dial showed
 * it: the reader never takes one for an extension), an extension as one, any other number as
 * numbers are shown.
 */
export function partyDisplay(number: string, region: CountryCode): string {
  if (!/^\d{2,6}$/.test(number)) return shownNumber(number, region);
  const emergency = isEmergencyNumber(number, region);
  return inEnglish(
    said(emergency ? 'errors:display.emergency' : 'errors:display.extension', { number }),
  );
}

/**
 * Who `number` (a caller id, or a dial's destination) is: the number kept and shown, and the
 * contact's name when the directory knows it. A withheld caller id ("anonymous") is no number:
 * "Number withheld", with none to call back or add; nor is an address without one
 * ("sip:alice@pbx.example.com"), shown as the text it is (numbers/caller-id.ts).
 */
export function identifyParty(
  number: string,
  options: { region: CountryCode; directory: CallDirectory },
): CallParty {
  const caller = readCallerId(number, options.region);
  if (caller.kind === 'withheld') {
    return { number: '', display: inEnglish(said('errors:callEnd.withheldCaller')) };
  }
  if (caller.kind === 'address') return { number: '', display: caller.address };
  // Read as every number is (numbers/number-match.ts), however the platform wrote it
  // ("030/1234567"): what reads as no number of the region is kept as it came.
  const written = caller.number;
  const normalized =
    written.length <= MAX_CALLER_ID ? partyNumber(written, options.region) : written;
  const contact = options.directory.lookupByNumber(normalized);
  return {
    number: normalized,
    display: partyDisplay(normalized, options.region),
    ...(contact
      ? {
          name: contact.display_name,
          ...(contact.company ? { company: contact.company } : {}),
          contact_id: contact.id,
        }
      : {}),
  };
}
