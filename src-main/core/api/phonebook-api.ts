import type { z } from 'zod';
import { said } from '../text/said';
import { CallbarError } from '../errors';
import { directoryUrl } from '../http/directory-url';
import { describeIssue, describeIssues } from '../validation-issues';
import { ProtocolError } from './api-errors';
import { PageBounds } from './page-bounds';
import type { PlatformClient, RateSignal } from './platform-client';
import {
  Contact,
  ContactInput,
  ContactListQuery,
  ListQuery,
  Page,
  Phonebook,
  PhonebookInput,
  WrittenPhonebook,
} from './schemas';

const PHONEBOOKS = 'v3/phonebook/phonebook/';
const PhonebookPage = Page(Phonebook);
const ContactPage = Page(Contact);
const CONTACTS = 'v3/phonebook/contact/';

/** A collection of the phonebook API: where, what its ids are called, what a write sends and answers. */
interface Items<I extends z.ZodType, W extends z.ZodType> {
  path: string;
  idName: 'phonebook' | 'contact';
  input: I;
  written: W;
}
const PHONEBOOK_ITEMS = {
  path: PHONEBOOKS,
  idName: 'phonebook' as const,
  input: PhonebookInput,
  written: WrittenPhonebook,
};
const CONTACT_ITEMS = {
  path: CONTACTS,
  idName: 'contact' as const,
  input: ContactInput,
  written: Contact,
};

/** Validates what the caller wants to send; a bad input never reaches the platform. */
function checkInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { field } = describeIssues(parsed.error);
  throw new CallbarError('invalid_input', describeIssue(parsed.error.issues[0]!), {
    ...(field ? { field } : {}),
  });
}

/** `value` as an id; `what` names it (`phonebook`, `contact`, `every` contact id). */
function positiveId(value: number, what: 'phonebook' | 'contact' | 'every'): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new CallbarError('invalid_input', said('errors:phonebookEdit.badId', { what }), {
      field: 'id',
    });
  }
  return value;
}

/**
 * The `next` link of a page, as a path under the base URL. A link to anywhere else is refused:
 * following it would send the user's token to another server.
 */
function nextPath(next: string, baseUrl: string, endpoint: string): string {
  const base = directoryUrl(baseUrl);
  const url = new URL(next, base);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) {
    throw new ProtocolError(endpoint, `the next page link points outside ${base.origin}`, 'next');
  }
  return url.pathname.slice(base.pathname.length) + url.search;
}

/** Phonebooks (contract 4.4) and contacts (4.5). */
export class PhonebookApi {
  readonly #client: PlatformClient;
  readonly #baseUrl: string;

  constructor(client: PlatformClient, baseUrl: string) {
    this.#client = client;
    this.#baseUrl = baseUrl;
  }

  /** See PlatformClient.onRateSignal: the phonebook scope's 429s and announced limits. */
  onRateSignal(listener: (signal: RateSignal) => void): () => void {
    return this.#client.onRateSignal((scope, signal) => {
      if (scope === 'phonebook') listener(signal);
    });
  }

  async listPhonebooks(query: ListQuery = {}): Promise<Page<Phonebook>> {
    return this.#client.request({
      method: 'get',
      path: PHONEBOOKS,
      scope: 'phonebook',
      searchParams: checkInput(ListQuery, query),
      schema: PhonebookPage,
    });
  }

  /** Every phonebook, page after page, following the platform's `next` links (see PageBounds). */
  allPhonebooks(query: Omit<ListQuery, 'page'> = {}): AsyncGenerator<Phonebook> {
    return this.#walk(PHONEBOOKS, checkInput(ListQuery, query), PhonebookPage);
  }

  getPhonebook(id: number): Promise<Phonebook> {
    return this.#item(PHONEBOOK_ITEMS, 'get', id, Phonebook);
  }

  createPhonebook(input: PhonebookInput): Promise<WrittenPhonebook> {
    return this.#write(PHONEBOOK_ITEMS, undefined, input);
  }

  updatePhonebook(id: number, input: PhonebookInput): Promise<WrittenPhonebook> {
    return this.#write(PHONEBOOK_ITEMS, id, input);
  }

  deletePhonebook(id: number): Promise<undefined> {
    return this.#item(PHONEBOOK_ITEMS, 'delete', id, undefined);
  }

  async listContacts(query: ContactListQuery = {}): Promise<Page<Contact>> {
    return this.#client.request({
      method: 'get',
      path: CONTACTS,
      scope: 'phonebook',
      searchParams: checkInput(ContactListQuery, query),
      schema: ContactPage,
    });
  }

  /**
   * The page a previous contacts page's `next` link points to (only under the base URL), for
   * callers that pace or resume a walk page by page (the directory sync).
   */
  async contactsPageAt(next: string): Promise<Page<Contact>> {
    const [pathname, search = ''] = nextPath(next, this.#baseUrl, `GET /${CONTACTS}`).split('?');
    return this.#client.request({
      method: 'get',
      path: pathname!,
      scope: 'phonebook',
      searchParams: Object.fromEntries(new URLSearchParams(search)),
      schema: ContactPage,
    });
  }

  allContacts(query: Omit<ContactListQuery, 'page'> = {}): AsyncGenerator<Contact> {
    return this.#walk(CONTACTS, checkInput(ContactListQuery, query), ContactPage);
  }

  getContact(id: number): Promise<Contact> {
    return this.#item(CONTACT_ITEMS, 'get', id, Contact);
  }

  createContact(input: ContactInput): Promise<Contact> {
    return this.#write(CONTACT_ITEMS, undefined, input);
  }

  updateContact(id: number, input: ContactInput): Promise<Contact> {
    return this.#write(CONTACT_ITEMS, id, input);
  }

  deleteContact(id: number): Promise<undefined> {
    return this.#item(CONTACT_ITEMS, 'delete', id, undefined);
  }

  /** A request about one item of `items` (get or delete). */
  async #item<S extends z.ZodType | undefined>(
    items: Items<z.ZodType, z.ZodType>,
    method: 'get' | 'delete',
    id: number,
    schema: S,
  ) {
    return this.#client.request({
      method,
      path: `${items.path}${positiveId(id, items.idName)}/`,
      scope: 'phonebook',
      schema,
    });
  }

  /** Creates an item of `items` (no id) or replaces one (PUT): the input is checked first. */
  async #write<I extends z.ZodType, W extends z.ZodType>(
    items: Items<I, W>,
    id: number | undefined,
    input: z.input<I>,
  ) {
    return this.#client.request({
      method: id === undefined ? 'post' : 'put',
      path: id === undefined ? items.path : `${items.path}${positiveId(id, items.idName)}/`,
      scope: 'phonebook',
      json: checkInput(items.input, input),
      schema: items.written,
    });
  }

  /**
   * Deletes all of `ids` or none of them (the platform's rule). The list is checked here first:
   * non-empty, positive whole numbers, no duplicates.
   */
  async bulkDeleteContacts(ids: readonly number[]): Promise<undefined> {
    if (ids.length === 0) {
      throw new CallbarError('invalid_input', said('errors:phonebooks.chooseContact'), {
        field: 'contact_ids',
      });
    }
    for (const id of ids) positiveId(id, 'every');
    return this.#client.request({
      method: 'delete',
      path: `${CONTACTS}bulk_delete/`,
      scope: 'phonebook',
      json: { contact_ids: [...new Set(ids)] },
      schema: undefined,
    });
  }

  async *#walk<T>(
    path: string,
    query: Record<string, string | number | undefined>,
    schema: z.ZodType<Page<T>>,
  ): AsyncGenerator<T> {
    const endpoint = `GET /${path}`;
    const bounds = new PageBounds(endpoint);
    let pagePath = path;
    let searchParams = query;
    for (;;) {
      const page = await this.#client.request({
        method: 'get',
        path: pagePath,
        scope: 'phonebook',
        searchParams,
        schema,
      });
      bounds.check(page);
      yield* page.results;
      if (!page.next) return;
      const next = nextPath(page.next, this.#baseUrl, endpoint);
      const [nextPathname, search = ''] = next.split('?');
      pagePath = nextPathname!;
      searchParams = Object.fromEntries(new URLSearchParams(search));
    }
  }
}
