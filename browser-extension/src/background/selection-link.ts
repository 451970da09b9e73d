/**
 * "Call with Callbar" on selected text: the first phone number in the selection (found in the
 * user's region, as the page's numbers are), as the `tel:` link Callbar is asked to dial. Only
 * the selection's first 1,000 characters are read: a page can put anything in a selection.
 */
import { numbersIn } from '../content/number-finder';

export const MAX_SELECTION = 1000;

export function selectionLink(selection: string, region: string): string | undefined {
  const found = numbersIn(selection.slice(0, MAX_SELECTION), region)[0];
  return found?.link;
}
