/**
 * Turns a found number into something a person can activate, without moving anything on the
 * page: the number's own text goes into an inline span (no box, margin or font of its own; the
 * extension's style sheet adds only a dotted underline, a pointer and a focus outline, none of
 * which takes room), with role=button, a place in the tab order and the accessible name
 * "Call <number>" in the user's language. The tel: link Callbar dials stays in the content
 * script's own world (a WeakMap), not in the page's DOM: the page cannot read it (what it says of
 * the user's region) nor forge a mark that dials a number of its choosing.
 */
import type { FoundNumber } from './number-finder';
import { MARK_ATTRIBUTE } from './text-walk';

/** The link each mark dials, by mark: only marks this script made are in it. */
export const markedLinks = new WeakMap<Element, string>();

/** The accessible name: `{number}` in the label replaced by the number as the page writes it. */
export function callLabel(label: string, number: string): string {
  return label.includes('{number}') ? label.replace('{number}', number) : `${label} ${number}`;
}

/** Marks the numbers of one text node (found in its text); the text itself stays as it was. */
export function markNumbers(node: Text, numbers: readonly FoundNumber[], label: string): number {
  let rest = node;
  let consumed = 0;
  let marked = 0;
  for (const number of numbers) {
    const start = number.start - consumed;
    if (start < 0 || number.end - consumed > rest.data.length) continue;
    const middle = rest.splitText(start);
    const after = middle.splitText(number.end - number.start);
    const mark = node.ownerDocument.createElement('span');
    mark.setAttribute(MARK_ATTRIBUTE, '');
    markedLinks.set(mark, number.link);
    mark.setAttribute('role', 'button');
    mark.setAttribute('tabindex', '0');
    mark.setAttribute('aria-label', callLabel(label, middle.data));
    middle.replaceWith(mark);
    mark.append(middle);
    rest = after;
    consumed = number.end;
    marked += 1;
  }
  return marked;
}
