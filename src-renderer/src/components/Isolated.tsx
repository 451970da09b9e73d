import type { ReactNode } from 'react';
import type { CallParty } from '../../../src-shared/contract';
import { shownText } from '../views/shown-text';

/** What Name and PhoneNumber show. */
interface IsolatedText {
  children: ReactNode;
  className?: string;
  /** Where it may end in an ellipsis: the whole text as its tooltip too (a `title`). */
  whole?: boolean;
}

/**
 * Text from outside, bidi-isolated where the window shows it: a name (a contact, a company, a
 * phonebook, a tenant) keeps its own direction inside its element, and a number is always left to
 * right in an element of its own, so a U+202E in a coworker's contact name cannot turn the number
 * beside it around, and a right-to-left name shows as it is written. Text given as a string has
 * its bidi formatting characters shown as text (shownText), so it cannot end the isolation early.
 */
export function Name({ children, className, whole }: IsolatedText) {
  return (
    <bdi className={className} title={wholeTitle(children, whole)}>
      {shown(children)}
    </bdi>
  );
}

/**
 * A phone number, an extension or a speed dial: isolated, left to right, in tabular digits and
 * never wrapped (`.phone-number`). Core formats the number (national in the user's country);
 * the window shows what it is given.
 */
export function PhoneNumber({ children, className, whole }: IsolatedText) {
  return (
    <bdi
      dir="ltr"
      className={className ? `phone-number ${className}` : 'phone-number'}
      title={wholeTitle(children, whole)}
    >
      {typeof children === 'string' ? extensionWhole(shownText(children)) : children}
    </bdi>
  );
}

/**
 * Who is on the other side of a call: the name the directory knows, or else the number;
 * `whole`: its whole text as its tooltip too, where a long one ends in an ellipsis.
 */
export function Party({ party, whole }: { party: CallParty; whole?: boolean }) {
  return party.name ? (
    <Name whole={whole}>{party.name}</Name>
  ) : (
    <PhoneNumber whole={whole}>{party.display}</PhoneNumber>
  );
}

/**
 * A cut text's tooltip: the text as shown (its bidi formatting characters as escapes), an
 * attribute's text, never markup. Only a text given as a string has one.
 */
function wholeTitle(children: ReactNode, whole: boolean | undefined): string | undefined {
  return whole && typeof children === 'string' ? shownText(children) : undefined;
}

/**
 * A number's extension as one word with its label ("ext.\u00a012", "Nebenstelle\u00a012"), where
 * a number may wrap (the call bar's caller): the line breaks before the label, not between it and
 * the extension's digits.
 */
function extensionWhole(text: string): string {
  return text.replace(/(\p{L}[\p{L}.]*) (\p{Nd}+)$/u, '$1\u00a0$2');
}

function shown(children: ReactNode): ReactNode {
  return typeof children === 'string' ? shownText(children) : children;
}
