/**
 * The platform words some errors in its framework's jargon (Django REST Framework): "Invalid pk",
 * "No PhonebookContact matches the given query.", "Invalid page.". This one table turns those
 * details into sentences a person can act on; the CLI uses it, and the window can. Details it does
 * not know pass through unchanged (the platform's own words are better than a guess), and the raw
 * detail stays in ApiError.errors for programs.
 */
import { CallbarError } from '../errors';
import { ApiError, fieldOfAttr } from './api-errors';

/** Model names the platform uses in its messages, as a person calls them. */
const THINGS: Record<string, string> = {
  PhonebookContact: 'contact',
  Contact: 'contact',
  Phonebook: 'phonebook',
};

/** The thing a reference field points at: `phonebook` → phonebook, `contact_ids.2` → contact. */
function referencedThing(attr: string | null | undefined): string {
  const field = fieldOfAttr(attr ?? null) ?? '';
  if (field === 'contact_ids') return 'contact';
  if (field === 'owners') return 'user';
  return field.replace(/_ids?$/, '').replaceAll('_', ' ') || 'item';
}

interface Translation {
  pattern: RegExp;
  say(match: RegExpExecArray, attr: string | null | undefined): string;
}

const TRANSLATIONS: Translation[] = [
  {
    pattern: /^Invalid pk "([^"]*)" - object does not exist\.?$/,
    say: (match, attr) =>
      `There is no ${referencedThing(attr)} with id ${match[1]} (or you may not use it).`,
  },
  {
    pattern: /^No (\w+) matches the given query\.?$/,
    say: (match) =>
      `This ${THINGS[match[1]!] ?? 'item'} does not exist (it may have been deleted), or you may not see it.`,
  },
  {
    pattern: /^Invalid page\.?$/,
    say: () => 'That page is past the end of the list; ask for an earlier page.',
  },
  {
    pattern: /^Not found\.?$/,
    say: () => 'The platform does not know this item (it may have been deleted).',
  },
  {
    pattern: /^Expected a list of items but got type "(\w+)"\.?$/,
    say: () => 'Give a list of values here.',
  },
];

/** A platform error detail in words a person understands (unknown ones unchanged). */
export function platformMessage(detail: string, attr?: string | null): string {
  for (const translation of TRANSLATIONS) {
    const match = translation.pattern.exec(detail.trim());
    if (match) return translation.say(match, attr);
  }
  return detail;
}

/**
 * A platform refusal as a CallbarError in words: every detail translated, the first field named,
 * and each field's own sentences (for showing next to its input). Other errors are returned as
 * they are (they are already sentences).
 */
export function explainPlatformError(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.errors.length === 0) return error;
  const fields: Record<string, string> = {};
  const sentences: string[] = [];
  for (const { detail, attr } of error.errors) {
    const sentence = platformMessage(detail, attr);
    sentences.push(sentence);
    const field = fieldOfAttr(attr);
    if (field) fields[field] = fields[field] ? `${fields[field]} ${sentence}` : sentence;
  }
  return new CallbarError(error.code, sentences.join(' '), {
    ...(error.field ? { field: error.field } : {}),
    ...(Object.keys(fields).length > 0 ? { fields } : {}),
    cause: error,
  });
}
