/**
 * A caller id as a call event gives it. A caller who withholds their number is sent as a word,
 * not a number: "anonymous", "Restricted", "Private", "Unavailable", or RFC 3323's
 * sip:anonymous@anonymous.invalid. Such a caller id holds no digit at all, and is no number to
 * show, look up, call back, add to contacts or fill a CRM link with.
 */
import { holdsDigit } from './number-reading';

/** True when `callerId` names no number (the caller withheld it). */
export function isWithheld(callerId: string): boolean {
  return !holdsDigit(callerId);
}
