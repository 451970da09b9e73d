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
import { said, sayWith, type Said, type Translate } from '../text/said';
import { inEnglish } from '../text/translators';

/** The longest caller id read as a number (the platform's are bounded where they enter). */
const MAX_CALLER_ID = 64;

/** The number as a call's party keeps it: E.164 when its country is known, else as received. */
export function partyNumber(number: string, region: CountryCode): string {
  return comparableNumber(number, region).e164 ?? number.trim();
}

/**
 * How a party's number is shown, worded by `words` (else in English): an emergency number of the
 * region as one (as the dial showed it: the reader never takes one for an extension), an
 * extension as one, any other number as numbers are shown, with the `extension` written after it
 * when the caller id had one ("(202) 555-0188 ext. 12").
 */
export function partyDisplay(
  number: string,
  region: CountryCode,
  extension?: string,
  words?: Translate,
): string {
  const say = (text: Said) => (words ? sayWith(words, text) : inEnglish(text));
  if (!/^\d{2,6}$/.test(number)) {
    const shown = shownNumber(number, region);
    return extension
      ? say(said('errors:display.withExtension', { number: shown, extension }))
      : shown;
  }
  const emergency = isEmergencyNumber(number, region);
  return say(said(emergency ? 'errors:display.emergency' : 'errors:display.extension', { number }));
}

/** `party` with the extension written after its number (shown, never dialled), if any. */
export function withExtension(party: CallParty, extension: string | undefined): CallParty {
  return extension ? { ...party, extension } : party;
}

/**
 * Who `number` (a caller id, or a dial's destination) is: the number kept and shown, and the
 * contact's name when the directory knows it; an extension written after the number is kept
 * beside it, shown and never dialled. A withheld caller id ("anonymous") is no number:
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
  const { number: written, extension } = caller;
  const normalized =
    written.length <= MAX_CALLER_ID ? partyNumber(written, options.region) : written;
  const contact = options.directory.lookupByNumber(normalized);
  return {
    number: normalized,
    display: partyDisplay(normalized, options.region, extension),
    ...(extension ? { extension } : {}),
    ...(contact
      ? {
          name: contact.display_name,
          ...(contact.company ? { company: contact.company } : {}),
          contact_id: contact.id,
        }
      : {}),
  };
}
