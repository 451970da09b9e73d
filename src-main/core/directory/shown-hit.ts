/**
 * A hit as the window shows it: the contact's numbers as numbers are shown (numbers/number-format:
 * national in the user's country), the matched characters marked in those rather than in the
 * stored text, and the number Enter dials (the one the search matched).
 */
import type { DirectoryContact, SearchHit, ShownNumbers } from '../../../src-shared/contract';
import type { NumberDisplay } from '../numbers/number-format';
import { describeHit } from './hit-description';
import type { DialingPlan } from './number-forms';
import type { ParsedQuery } from './parsed-query';

/** A contact's numbers as `display` shows them. */
export function shownNumbersOf(
  contact: Pick<DirectoryContact, 'number' | 'secondary_number'>,
  display: NumberDisplay,
): ShownNumbers {
  return {
    number: display.of(contact.number),
    secondary_number:
      contact.secondary_number === null ? null : display.of(contact.secondary_number),
  };
}

/**
 * What matched `query` in `contact`, in the text shown: the shown numbers are the stored ones
 * formatted (the same digits read the same way by `plan`), so they are described as they are.
 */
export function shownHit(
  contact: DirectoryContact,
  query: ParsedQuery,
  plan: DialingPlan,
  display: NumberDisplay,
): Omit<SearchHit, 'contact' | 'match'> {
  const shown = shownNumbersOf(contact, display);
  const described = describeHit({ ...contact, ...shown }, query, plan);
  return {
    field: described.field,
    ranges: described.ranges,
    shown,
    dials:
      described.field === 'secondary_number' && contact.secondary_number !== null
        ? 'secondary_number'
        : 'number',
  };
}
