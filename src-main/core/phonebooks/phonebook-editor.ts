/**
 * Phonebooks and contacts edited from the window and the CLI alike (one editing layer): the
 * platform's list, create, edit and delete, the fields checked against the platform's rules
 * first, its refusals turned into sentences next to the field concerned, and every contact change
 * applied to the directory's search index at once. A contact's numbers are read the way every
 * number is (numbers/contact-number.ts: E.164 in the user's region, the same refusal as an
 * import's) and shown the way every number is. The writes answer with the platform's record (the
 * CLI shows it whole); the window's router turns it into the contract's view (contactView,
 * phonebookView).
 */
import type { CountryCode } from 'libphonenumber-js/max';
import type { z } from 'zod';
import type {
  ContactFields,
  ContactOrdering,
  ContactView,
  PhonebookFields,
  PhonebookOrdering,
  PhonebookView,
} from '../../../src-shared/contract';
import { ApiError } from '../api/api-errors';
import type { PhonebookApi } from '../api/phonebook-api';
import { explainPlatformError } from '../api/platform-messages';
import {
  ContactInput,
  PhonebookInput,
  type Contact,
  type Page,
  type WrittenPhonebook,
} from '../api/schemas';
import { said } from '../text/said';
import { CallbarError } from '../errors';
import { readContactNumber } from '../numbers/contact-number';
import { shownNumber } from '../numbers/number-format';
import { inEnglish, spokenSaid } from '../text/translators';

/** Rows per page of the window's lists. */
export const LIST_PAGE_SIZE = 50;

export interface ListedPage<T> {
  count: number;
  page: number;
  page_size: number;
  has_more: boolean;
  results: T[];
}

const speedDialRule = (): string => inEnglish(said('errors:phonebookEdit.speedDialRule'));

/** A number field as typed: a whole number, or undefined (its field then says `sentence`). */
function wholeNumber(value: number | string): number | undefined {
  const text = typeof value === 'number' ? String(value) : value.trim();
  return /^-?\d+$/.test(text) ? Number(text) : undefined;
}

function invalidFields(fields: Record<string, string>): CallbarError {
  const [field] = Object.keys(fields);
  return new CallbarError('invalid_input', Object.values(fields).join(' '), {
    ...(field ? { field } : {}),
    fields,
  });
}

/**
 * Checks `value` with the platform's write schema; every problem is named with its field, all at
 * once, together with the `typed` problems found before (a number field holding text).
 */
function checked<S extends z.ZodType>(
  schema: S,
  value: unknown,
  typed: Record<string, string> = {},
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success && Object.keys(typed).length === 0) return parsed.data;
  const fields: Record<string, string> = { ...typed };
  for (const issue of parsed.error?.issues ?? []) {
    const field = String(issue.path[0] ?? '_');
    fields[field] ??= issue.message;
  }
  throw invalidFields(fields);
}

function listed<T, V>(page: Page<T>, number: number, view: (item: T) => V): ListedPage<V> {
  return {
    count: page.count,
    page: number,
    page_size: LIST_PAGE_SIZE,
    has_more: page.next !== null,
    results: page.results.map(view),
  };
}

/** The window's view of a phonebook. */
export const phonebookView = (book: PhonebookView): PhonebookView => ({
  id: book.id,
  description: book.description,
  priority: book.priority,
  is_shared: book.is_shared,
});

/** The window's view of a contact, its numbers shown as a person reads them in `region`. */
export const contactView = (contact: Contact, region: CountryCode): ContactView => ({
  id: contact.id,
  phonebook: contact.phonebook,
  display_name: contact.display_name,
  number: contact.number,
  secondary_number: contact.secondary_number,
  speed_dial: contact.speed_dial ?? null,
  company: contact.company,
  shown: {
    number: shownNumber(contact.number, region),
    secondary_number:
      contact.secondary_number === null ? null : shownNumber(contact.secondary_number, region),
  },
});

/** Runs a platform request; its refusal comes back in words (with `explain` for special cases). */
async function inWords<T>(
  request: () => Promise<T>,
  explain?: (error: ApiError) => CallbarError | undefined,
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof ApiError) {
      const special = explain?.(error);
      if (special) throw special;
    }
    throw explainPlatformError(error);
  }
}

/**
 * What the editor changes in this computer's directory: the window's live one; the CLI's opens
 * the cache for one change and only warns when it cannot (the platform has the change).
 */
export interface EditedDirectory {
  upsertLocal(contact: Contact): Promise<void>;
  removeLocal(ids: readonly number[]): Promise<void>;
  /** Brings a phonebook change in (a sync, in the background). */
  sync(): Promise<unknown>;
}

export class PhonebookEditor {
  readonly #api: PhonebookApi;
  readonly #directory: EditedDirectory;
  readonly #region: () => CountryCode;

  /** `region`: the user's region now (the profile's live region source). */
  constructor(api: PhonebookApi, directory: EditedDirectory, region: () => CountryCode) {
    this.#api = api;
    this.#directory = directory;
    this.#region = region;
  }

  /** A contact as the window shows it (numbers in the user's region now). */
  view(contact: Contact): ContactView {
    return contactView(contact, this.#region());
  }

  async listPhonebooks(query: {
    search?: string | undefined;
    ordering: PhonebookOrdering;
    page: number;
  }): Promise<ListedPage<PhonebookView>> {
    const page = await inWords(() =>
      this.#api.listPhonebooks({ ...query, page_size: LIST_PAGE_SIZE }),
    );
    return listed(page, query.page, phonebookView);
  }

  /** `owners` (user ids) only from the CLI: the window leaves them to the platform. */
  async createPhonebook(fields: PhonebookFields, owners?: number[]): Promise<WrittenPhonebook> {
    const input = this.#phonebookInput(fields);
    const book = await inWords(() =>
      this.#api.createPhonebook({ ...input, ...(owners ? { owners } : {}) }),
    );
    this.#resync();
    return book;
  }

  /** Without `owners`, the phonebook keeps its owners. */
  async updatePhonebook(
    id: number,
    fields: PhonebookFields,
    owners?: number[],
  ): Promise<WrittenPhonebook> {
    const input = this.#phonebookInput(fields);
    // PUT replaces the whole phonebook: its owners are sent back as they are unless given.
    const kept =
      owners ?? (await inWords(() => this.#api.getPhonebook(id))).owners.map((owner) => owner.id);
    const book = await inWords(() => this.#api.updatePhonebook(id, { ...input, owners: kept }));
    this.#resync();
    return book;
  }

  async deletePhonebook(id: number): Promise<void> {
    await inWords(
      () => this.#api.deletePhonebook(id),
      (error) =>
        error.code === 'phonebook_in_use'
          ? new CallbarError(
              'phonebook_in_use',
              said('errors:phonebookEdit.inUse', { problem: spokenSaid(explainedMessage(error)) }),
              { cause: error },
            )
          : undefined,
    );
    // Its contacts went with it: a sync takes them out of the search index.
    this.#resync();
  }

  async listContacts(query: {
    phonebook: number;
    search?: string | undefined;
    ordering: ContactOrdering;
    page: number;
  }): Promise<ListedPage<ContactView>> {
    const page = await inWords(() =>
      this.#api.listContacts({ ...query, page_size: LIST_PAGE_SIZE }),
    );
    return listed(page, query.page, (contact) => this.view(contact));
  }

  async createContact(fields: ContactFields): Promise<Contact> {
    const input = this.#contactInput(fields);
    const contact = await inWords(() => this.#api.createContact(input));
    await this.#directory.upsertLocal(contact);
    return contact;
  }

  async updateContact(id: number, fields: ContactFields): Promise<Contact> {
    const input = this.#contactInput(fields);
    const contact = await inWords(() => this.#api.updateContact(id, input));
    await this.#directory.upsertLocal(contact);
    return contact;
  }

  async deleteContact(id: number): Promise<void> {
    await inWords(() => this.#api.deleteContact(id));
    await this.#directory.removeLocal([id]);
  }

  /** All or nothing: on any refusal nothing was deleted, and the message says so. */
  async bulkDeleteContacts(ids: readonly number[]): Promise<number> {
    const unique = [...new Set(ids)];
    await inWords(
      () => this.#api.bulkDeleteContacts(unique),
      (error) =>
        error.status === 403 && !error.authenticationFailed
          ? new CallbarError('forbidden', said('errors:phonebooks.deleteForbidden'), {
              cause: error,
            })
          : new CallbarError(
              error.code,
              said('errors:phonebookEdit.nothingDeleted', {
                problem: spokenSaid(explainedMessage(error)),
              }),
              { cause: error },
            ),
    );
    await this.#directory.removeLocal(unique);
    return unique.length;
  }

  #phonebookInput(fields: PhonebookFields): PhonebookInput {
    const priority = wholeNumber(fields.priority);
    return checked(
      PhonebookInput,
      { ...fields, priority: priority ?? fields.priority },
      priority === undefined
        ? { priority: inEnglish(said('errors:phonebookEdit.priorityWhole')) }
        : {},
    );
  }

  #contactInput(fields: ContactFields): ContactInput {
    const speed_dial = wholeNumber(fields.speed_dial);
    const problems: Record<string, string> =
      speed_dial === undefined ? { speed_dial: speedDialRule() } : {};
    const region = this.#region();
    /** A number field read as every number is; an empty one is left to the schema's rule. */
    const read = (field: 'number' | 'secondary_number', text: string | null | undefined) => {
      if (!text?.trim()) return field === 'number' ? (text ?? '') : null;
      try {
        const { number, droppedExtension } = readContactNumber(text, region, field);
        // An import notes it on the row; a form says it before saving less than was typed.
        if (droppedExtension === undefined) return number;
        problems[field] = inEnglish(
          said('errors:number.extensionInContact', { extension: droppedExtension }),
        );
        return text;
      } catch (error) {
        if (!(error instanceof CallbarError)) throw error;
        problems[field] = error.message;
        return text;
      }
    };
    return checked(
      ContactInput,
      {
        ...fields,
        number: read('number', fields.number),
        secondary_number: read('secondary_number', fields.secondary_number),
        speed_dial: speed_dial ?? fields.speed_dial,
      },
      problems,
    );
  }

  #resync(): void {
    void this.#directory.sync().catch(() => undefined);
  }
}

function explainedMessage(error: ApiError): string {
  const explained = explainPlatformError(error);
  return explained instanceof Error ? explained.message : error.message;
}
