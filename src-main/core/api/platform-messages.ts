/**
 * The platform words some errors in its framework's jargon (Django REST Framework): "Invalid pk",
 * "No PhonebookContact matches the given query.", "Invalid page.", "Select a valid choice. That
 * choice is not one of the available choices.", "Ensure this value is less than or equal to 50.". This one table turns those
 * details into sentences a person can act on; the CLI uses it, and the window can. Details it does
 * not know pass through unchanged (the platform's own words are better than a guess), and the raw
 * detail stays in ApiError.errors for programs. The sentences are the `errors` catalog's, worded
 * in English unless a `t` is given.
 */
import { CallbarError } from '../errors';
import { said, sayWith, type Said, type Translate } from '../text/said';
import { englishFor } from '../text/translators';
import { ApiError, fieldOfAttr } from './api-errors';

/** DRF's attr for an error about the whole form (`api_settings.NON_FIELD_ERRORS_KEY`). */
const NON_FIELD_ERRORS = 'non_field_errors';

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
  say(match: RegExpExecArray, attr: string | null | undefined): Said;
  /** The form field the detail is about, when its attr does not say (a form-wide error). */
  field?(match: RegExpExecArray): string | undefined;
}

/** Fields as a person calls them. */
const FIELD_WORDS: Record<string, string> = {
  secondary_number: 'second number',
  display_name: 'name',
  description: 'name',
};

/**
 * A table's own word for `key`: a name every object has ("constructor", "toString", "__proto__")
 * in the platform's words is none (it was read as one: a function's source in the sentence).
 */
function ownWord(table: Record<string, string>, key: string): string | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * A unique-together rule's form-wide error ("The fields phonebook, number must make a unique
 * set."): the field it is about is the one besides the phonebook, when there is exactly one.
 */
function uniqueTogetherField(match: RegExpExecArray): string | undefined {
  const others = match[1]!
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== 'phonebook');
  return others.length === 1 ? others[0] : undefined;
}

const TRANSLATIONS: Translation[] = [
  {
    pattern: /^Invalid pk "([^"]*)" - object does not exist\.?$/,
    say: (match, attr) => {
      const thing = referencedThing(attr);
      return said('errors:platform.noSuchId', { thing, name: thing, id: match[1]! });
    },
  },
  {
    pattern: /^No (\w+) matches the given query\.?$/,
    say: (match) => {
      const thing = ownWord(THINGS, match[1]!) ?? 'item';
      return said('errors:platform.doesNotExist', { thing, name: thing });
    },
  },
  {
    // A filter's reference that is not there (django-filter's ModelChoiceFilter: `?phonebook=99`).
    pattern: /^Select a valid choice\. That choice is not one of the available choices\.?$/,
    say: (_match, attr) => {
      const thing = referencedThing(attr);
      return said('errors:platform.doesNotExist', { thing, name: thing });
    },
  },
  {
    // A number field's bound (DRF's MaxValueValidator / MinValueValidator).
    pattern: /^Ensure this value is (less|greater) than or equal to (-?\d+)\.?$/,
    say: (match) =>
      match[1] === 'less'
        ? said('errors:platform.atMost', { max: match[2]! })
        : said('errors:platform.atLeast', { min: match[2]! }),
  },
  {
    pattern: /^Invalid page\.?$/,
    say: () => said('errors:platform.invalidPage'),
  },
  {
    pattern: /^Not found\.?$/,
    say: () => said('errors:platform.notFound'),
  },
  {
    pattern: /^Expected a list of items but got type "(\w+)"\.?$/,
    say: () => said('errors:platform.expectedList'),
  },
  {
    pattern: /^The fields ([\w, ]+) must make a unique set\.?$/,
    say: (match) => {
      const field = uniqueTogetherField(match);
      if (!field) return said('errors:platform.alreadyExists');
      const words = ownWord(FIELD_WORDS, field) ?? field.replaceAll('_', ' ');
      return said(
        match[1]!.includes('phonebook')
          ? 'errors:platform.uniqueInPhonebook'
          : 'errors:platform.uniqueItem',
        { field, words },
      );
    },
    field: uniqueTogetherField,
  },
];

/**
 * Refusals the contract names by their attr's code, whatever words its detail uses (it says only
 * what the detail states): a phonebook's name taken by another (`description.unique_description`).
 */
const BY_ATTR_CODE: Record<string, () => Said> = {
  unique_description: () => said('errors:platform.phonebookNameTaken'),
};

/** A platform error detail in words, with the form field it concerns (if any). */
export interface ExplainedDetail {
  sentence: string;
  field: string | undefined;
}

/**
 * A platform error detail in words a person understands (unknown ones unchanged), in `t`'s
 * language, and the field it concerns: its attr's, or for a form-wide error (`non_field_errors`)
 * the field its words name.
 */
export function explainDetail(
  detail: string,
  attr?: string | null,
  t: Translate = englishFor('errors'),
): ExplainedDetail {
  const ownField = fieldOfAttr(attr ?? null);
  const field = ownField === NON_FIELD_ERRORS ? undefined : ownField;
  const code = attr?.split('.')[1];
  const byCode =
    code !== undefined && Object.hasOwn(BY_ATTR_CODE, code) ? BY_ATTR_CODE[code] : undefined;
  if (byCode) return { sentence: sayWith(t, byCode()), field };
  for (const translation of TRANSLATIONS) {
    const match = translation.pattern.exec(detail.trim());
    if (match) {
      return {
        sentence: sayWith(t, translation.say(match, attr)),
        field: field ?? translation.field?.(match),
      };
    }
  }
  return { sentence: detail, field };
}

/** A platform error detail in words a person understands (unknown ones unchanged). */
export function platformMessage(detail: string, attr?: string | null): string {
  return explainDetail(detail, attr).sentence;
}

/**
 * A platform refusal as a CallbarError in words: every detail translated, the first field named,
 * and each field's own sentences (for showing next to its input). Other errors are returned as
 * they are (they are already sentences).
 */
export function explainPlatformError(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.errors.length === 0) return error;
  // By the platform's field names, whatever they are ("constructor" is a field like any other).
  const fields = new Map<string, string>();
  const sentences: string[] = [];
  let firstField: string | undefined;
  for (const { detail, attr } of error.errors) {
    const { sentence, field } = explainDetail(detail, attr);
    sentences.push(sentence);
    firstField ??= field;
    if (field) fields.set(field, [fields.get(field), sentence].filter(Boolean).join(' '));
  }
  return new CallbarError(error.code, sentences.join(' '), {
    ...(firstField ? { field: firstField } : {}),
    ...(fields.size > 0 ? { fields: Object.fromEntries(fields) } : {}),
    cause: error,
  });
}
