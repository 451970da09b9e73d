/**
 * A caller id as a call event gives it: a number, a caller who withheld theirs, or an address
 * that names no number.
 *
 * - Withheld: the words platforms send for a withheld number ("anonymous", "Restricted",
 *   "Private", "Unavailable", any case), or a SIP address whose user is one of them (RFC 3323's
 *   sip:anonymous@anonymous.invalid). The contract (section 6) does not say what an event's
 *   parties look like, so these are the words the SIP world uses.
 * - An address: a SIP address (sip:alice@pbx.example.com, alice@example.com) whose user part is
 *   no number, or any other text without a digit (a name). It is shown as the text it is: no
 *   number to look up, call back (click-to-dial takes "an extension or a phone number", contract
 *   4.6), add to contacts or fill a CRM link with.
 * - A number: anything else; a SIP address's user part when that is a number (sip:+4930123@pbx),
 *   read by the reader's link parser (dial-link.ts). What the reader reads as no part of the
 *   number (a written extension, keys after a pause, a link's parameters, digits of another
 *   script) is read away by the reader: "+49 30 1234567 ext. 12" is +49 30 1234567, never
 *   +49 30 123456712; the written extension is kept beside it (12), to be shown, never dialled.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import { isDialLink, parseDialLink } from './dial-link';
import { holdsDigit, readNumber } from './number-reading';

/** What a caller id names. */
export type CallerId =
  | { kind: 'withheld' }
  /** Text that names no number, trimmed: shown as it is, never dialled. */
  | { kind: 'address'; address: string }
  /**
   * The number as written (still to be read in the user's region), and the extension written
   * after an outside number ("ext. 12", ";ext=12": its digits) when there is one.
   */
  | { kind: 'number'; number: string; extension?: string };

const WITHHELD_WORDS = new Set(['anonymous', 'restricted', 'private', 'unavailable']);

/** A SIP address: a sip:/sips: link, or user@host as platforms also write it. */
const SIP_ADDRESS = /^sips?:|@/i;

/** Digits and the separators between them alone: a number with nothing else written. */
const PLAIN = /^\+?[\d\s().\-/]*$/;

/** Reads `callerId`, as an event's `from` or `to` gave it, in the user's `region`. */
export function readCallerId(callerId: string, region: CountryCode): CallerId {
  const text = callerId.trim();
  if (WITHHELD_WORDS.has(text.toLowerCase())) return { kind: 'withheld' };
  if (SIP_ADDRESS.test(text)) {
    const user = text.replace(/^sips?:/i, '').replace(/[@;].*$/s, '');
    if (WITHHELD_WORDS.has(user.toLowerCase())) return { kind: 'withheld' };
    try {
      const address = isDialLink(text) ? text : `sip:${text}`;
      return { kind: 'number', ...numberPart(parseDialLink(address).number, region, address) };
    } catch {
      return { kind: 'address', address: text };
    }
  }
  if (!holdsDigit(text)) return { kind: 'address', address: text };
  return { kind: 'number', ...numberPart(text, region) };
}

/**
 * The number `written` names: as written when that is digits and separators alone (a national
 * number without its area code stays one, matched by its ending: number-match.ts), else as the
 * reader reads it, without what is no part of it; as written when the reader reads no number.
 * `link` is the SIP address `written` is the user part of: the reader reads it whole, so an
 * extension written as its parameter (sip:+12025550199;ext=12@pbx) is kept as one written after
 * the number is.
 */
function numberPart(
  written: string,
  region: CountryCode,
  link = written,
): { number: string; extension?: string } {
  let reading;
  try {
    reading = readNumber(link, { region });
  } catch {
    return { number: written };
  }
  const extension = reading.kind === 'external' ? reading.extension : undefined;
  const kept = extension ? { extension } : {};
  if (PLAIN.test(written)) return { number: written, ...kept };
  if (reading.kind === 'external') return { number: reading.number.number, ...kept };
  return { number: reading.kind === 'code' ? reading.code : reading.digits };
}
