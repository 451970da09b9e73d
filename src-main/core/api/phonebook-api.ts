import type { z } from 'zod';
import { said } from '../text/said';
import { CallbarError } from '../errors';
import { describeIssue, describeIssues } from '../validation-issues';
import { ApiError } from './api-errors';
import {
  PageSizes,
  refusedPageSize,
  totalOrder,
  walkItems,
  walkList,
  type ListWalk,
  type PageRequest,
  type PageSender,
  type WalkStep,
} from './page-walk';
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
 * A contact list asked for the contacts of a phonebook the platform does not have, or will not
 * show this user. The contract does not say how a platform answers; django-filter's
 * ModelChoiceFilter answers 400 invalid_choice on attr `phonebook`. That is no refusal of what was
 * asked: the phonebook named is not found, as a GET of it answers (404), and a script hears
 * `not_found` either way.
 */
export class UnknownPhonebookError extends CallbarError {
  constructor(cause: ApiError) {
    super(
      'not_found',
      said('errors:platform.doesNotExist', { thing: 'phonebook', name: 'phonebook' }),
      {
        field: 'phonebook',
        cause,
      },
    );
    this.name = 'UnknownPhonebookError';
  }
}

/** `request`, a list filtered by phonebook, with the platform's "no such phonebook" said as such. */
async function ofPhonebook<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const unknown =
      error instanceof ApiError &&
      error.status === 400 &&
      error.errors.some((item) => item.code === 'invalid_choice' && item.attr === 'phonebook');
    throw unknown ? new UnknownPhonebookError(error) : error;
  }
}

/** The page size a walk asks for unless told otherwise (the platform may keep to fewer). */
export const WALK_PAGE_SIZE = 1000;

/** How a walk of a whole list is sent: its page size, pacing and bound (see page-walk.ts). */
export interface WalkOptions {
  pageSize?: number;
  send?: PageSender;
  maxItems?: number;
}

/**
 * The unique keys that complete a list's order into a total one: a phonebook's description
 * (unique in its group), a contact's number (unique in its phonebook, contract 2.5).
 */
const PHONEBOOK_KEY = ['description'];
const CONTACT_KEY_IN_PHONEBOOK = ['number'];
const CONTACT_KEY = ['phonebook', 'number'];

/** Phonebooks (contract 4.4) and contacts (4.5). */
export class PhonebookApi {
  readonly #client: PlatformClient;
  readonly #baseUrl: string;
  readonly #sizes: PageSizes;

  /** `sizes`: the platform's largest page size, as learnt (default: learnt by this object). */
  constructor(client: PlatformClient, baseUrl: string, sizes: PageSizes = new PageSizes(baseUrl)) {
    this.#client = client;
    this.#baseUrl = baseUrl;
    this.#sizes = sizes;
  }

  /** See PlatformClient.onRateSignal: the phonebook scope's 429s and announced limits. */
  onRateSignal(listener: (signal: RateSignal) => void): () => void {
    return this.#client.onRateSignal((scope, signal) => {
      if (scope === 'phonebook') listener(signal);
    });
  }

  async listPhonebooks(query: ListQuery = {}): Promise<Page<Phonebook>> {
    return this.#onePage(PHONEBOOKS, PhonebookPage, checkInput(ListQuery, query));
  }

  /**
   * Every phonebook, each once, page after page in a total order, checked against the
   * platform's count (see page-walk.ts).
   */
  allPhonebooks(
    query: Omit<ListQuery, 'page'> = {},
    options: WalkOptions = {},
  ): AsyncGenerator<Phonebook> {
    const checked = checkInput(ListQuery, query);
    return walkItems(
      this.#list(
        PHONEBOOKS,
        PhonebookPage,
        checked,
        totalOrder(checked.ordering, PHONEBOOK_KEY),
        options,
      ),
    );
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
    const checked = checkInput(ContactListQuery, query);
    return ofPhonebook(() => this.#onePage(CONTACTS, ContactPage, checked));
  }

  /**
   * One page of a list, at the page size asked for or, when it is smaller, the largest the
   * platform takes, learnt as a walk learns it (page-walk.ts): a platform that refuses a page
   * size above its maximum (400 on page_size) is asked again at the size it allows, as others
   * clamp it silently.
   */
  async #onePage<T>(
    path: string,
    schema: z.ZodType<Page<T>>,
    query: ListQuery & { phonebook?: number | undefined },
  ): Promise<Page<T>> {
    for (;;) {
      const size =
        query.page_size === undefined ? undefined : await this.#sizes.fit(query.page_size);
      try {
        return await this.#client.request({
          method: 'get',
          path,
          scope: 'phonebook',
          searchParams: size === undefined ? query : { ...query, page_size: size },
          schema,
        });
      } catch (error) {
        const smaller = size === undefined ? undefined : refusedPageSize(error, size);
        if (smaller === undefined) throw error;
        await this.#sizes.learn(smaller);
      }
    }
  }

  /** Every contact, each once, in a total order, checked against the count (page-walk.ts). */
  allContacts(
    query: Omit<ContactListQuery, 'page'> = {},
    options: WalkOptions = {},
  ): AsyncGenerator<Contact> {
    return walkItems(this.#contactList(query, options));
  }

  /** allContacts page by page, with each page's count (the sync's progress). */
  walkContacts(
    query: Omit<ContactListQuery, 'page'> = {},
    options: WalkOptions = {},
  ): AsyncGenerator<WalkStep<Contact>> {
    return walkList(this.#contactList(query, options));
  }

  #contactList(query: Omit<ContactListQuery, 'page'>, options: WalkOptions): ListWalk<Contact> {
    const checked = checkInput(ContactListQuery, query);
    const unique = checked.phonebook === undefined ? CONTACT_KEY : CONTACT_KEY_IN_PHONEBOOK;
    return this.#list(
      CONTACTS,
      ContactPage,
      checked,
      totalOrder(checked.ordering, unique),
      options,
    );
  }

  /** A whole list's walk: the query's page_size, else the option's, else WALK_PAGE_SIZE. */
  #list<T>(
    path: string,
    schema: z.ZodType<Page<T>>,
    query: ListQuery & { phonebook?: number },
    ordering: string,
    options: WalkOptions,
  ): ListWalk<T> {
    // A walk starts at the first page, whatever `page` says.
    const { page_size: pageSize, ...filters } = { ...query, page: undefined };
    return {
      page: (request: PageRequest) =>
        ofPhonebook(() =>
          this.#client.request({
            method: 'get',
            path: request.path,
            scope: 'phonebook',
            searchParams: request.searchParams,
            schema,
          }),
        ),
      baseUrl: this.#baseUrl,
      path,
      query: { ...filters, ordering },
      pageSize: pageSize ?? options.pageSize ?? WALK_PAGE_SIZE,
      sizes: this.#sizes,
      ...(options.maxItems !== undefined ? { maxItems: options.maxItems } : {}),
      ...(options.send ? { send: options.send } : {}),
    };
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
}
