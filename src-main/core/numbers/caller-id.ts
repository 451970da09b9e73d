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
 *   read by the reader's link parser (dial-link.ts).
 */
import { isDialLink, parseDialLink } from './dial-link';
import { holdsDigit } from './number-reading';

/** What a caller id names. */
export type CallerId =
  | { kind: 'withheld' }
  /** Text that names no number, trimmed: shown as it is, never dialled. */
  | { kind: 'address'; address: string }
  /** The number as written (still to be read in the user's region). */
  | { kind: 'number'; number: string };

const WITHHELD_WORDS = new Set(['anonymous', 'restricted', 'private', 'unavailable']);

/** A SIP address: a sip:/sips: link, or user@host as platforms also write it. */
const SIP_ADDRESS = /^sips?:|@/i;

/** Reads `callerId`, as an event's `from` or `to` gave it. */
export function readCallerId(callerId: string): CallerId {
  const text = callerId.trim();
  if (WITHHELD_WORDS.has(text.toLowerCase())) return { kind: 'withheld' };
  if (SIP_ADDRESS.test(text)) {
    const user = text.replace(/^sips?:/i, '').replace(/[@;].*$/s, '');
    if (WITHHELD_WORDS.has(user.toLowerCase())) return { kind: 'withheld' };
    try {
      return {
        kind: 'number',
        number: parseDialLink(isDialLink(text) ? text : `sip:${text}`).number,
      };
    } catch {
      return { kind: 'address', address: text };
    }
  }
  return holdsDigit(text) ? { kind: 'number', number: text } : { kind: 'address', address: text };
}
