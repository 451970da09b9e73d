import type { ReactNode } from 'react';
import type { CallParty } from '../../../src-shared/contract';
import { shownText } from '../views/shown-text';

/**
 * Text from outside, bidi-isolated where the window shows it: a name (a contact, a company, a
 * phonebook, a tenant) keeps its own direction inside its element, and a number is always left to
 * right in an element of its own, so a U+202E in a coworker's contact name cannot turn the number
 * beside it around, and a right-to-left name shows as it is written. Text given as a string has
 * its bidi formatting characters shown as text (shownText), so it cannot end the isolation early.
 */
export function Name({ children, className }: { children: ReactNode; className?: string }) {
  return <bdi className={className}>{shown(children)}</bdi>;
}

/**
 * A phone number, an extension or a speed dial: isolated, left to right, in tabular digits and
 * never wrapped (`.phone-number`). Core formats the number (national in the user's country);
 * the window shows what it is given.
 */
export function PhoneNumber({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <bdi dir="ltr" className={className ? `phone-number ${className}` : 'phone-number'}>
      {shown(children)}
    </bdi>
  );
}

/** Who is on the other side of a call: the name the directory knows, or else the number. */
export function Party({ party }: { party: CallParty }) {
  return party.name ? <Name>{party.name}</Name> : <PhoneNumber>{party.display}</PhoneNumber>;
}

function shown(children: ReactNode): ReactNode {
  return typeof children === 'string' ? shownText(children) : children;
}
