/**
 * `callbar phonebooks …`, `callbar contacts …`, `callbar dial`, `callbar hangup`: the platform
 * client on the command line. Every command takes --json; errors print the platform's own detail
 * and the field it concerns.
 */
import { ApiError } from '../../core/api/api-errors';
import type { PlatformApi } from '../../core/api/platform-api';
import type {
  Contact,
  ContactInput,
  Page,
  Phonebook,
  PhonebookInput,
  WrittenPhonebook,
} from '../../core/api/schemas';
import { CallbarError, describeError } from '../../core/errors';
import { exitCodeForError, ExitCode, type CliIo } from '../cli-io';
import { formatTable } from '../table';

/** The options the platform commands read (parsed by run-cli). */
export interface PlatformArgs {
  json: boolean;
  args: string[];
  search?: string | undefined;
  ordering?: string | undefined;
  page?: string | undefined;
  'page-size'?: string | undefined;
  all?: boolean | undefined;
  phonebook?: string | undefined;
  description?: string | undefined;
  priority?: string | undefined;
  shared?: boolean | undefined;
  owner?: string[] | undefined;
  name?: string | undefined;
  number?: string | undefined;
  secondary?: string | undefined;
  'speed-dial'?: string | undefined;
  company?: string | undefined;
}

/** Where contact changes go so the local directory stays right (opened on first use). */
export interface LocalDirectory {
  upsertLocal(contact: Contact): Promise<void>;
  removeLocal(ids: readonly number[]): Promise<void>;
}

type Command = (
  api: PlatformApi,
  io: CliIo,
  options: PlatformArgs,
  directory: () => Promise<LocalDirectory>,
) => Promise<unknown>;

/** Applies a change the platform accepted to the local directory; a failure there only warns. */
async function updateDirectory(
  io: CliIo,
  directory: () => Promise<LocalDirectory>,
  change: (local: LocalDirectory) => Promise<void>,
): Promise<void> {
  try {
    await change(await directory());
  } catch (error) {
    io.err(
      `callbar: the platform has the change, but the local directory could not be updated (${describeError(error).message}); \`callbar sync\` will bring it up to date.`,
    );
  }
}

function usage(message: string): never {
  throw new CallbarError('usage', message);
}

function integer(value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) usage(`${what} must be a whole number, not "${value}".`);
  return Number(value);
}

function requiredInteger(value: string | undefined, what: string): number {
  const parsed = integer(value, what);
  if (parsed === undefined) usage(`${what} is required.`);
  return parsed;
}

function onlyArg(options: PlatformArgs, what: string): string {
  if (options.args.length !== 1) usage(`Give exactly one ${what}.`);
  return options.args[0]!;
}

/** search, ordering, page size; the page number only when one page is asked for. */
function listQuery(options: PlatformArgs) {
  return {
    search: options.search,
    ordering: options.ordering,
    page_size: integer(options['page-size'], '--page-size'),
  };
}

function phonebookRows(phonebooks: (Phonebook | WrittenPhonebook)[]): string {
  return formatTable(
    ['ID', 'DESCRIPTION', 'PRIORITY', 'SHARED', 'OWNERS'],
    phonebooks.map((book) => [
      book.id,
      book.description,
      book.priority,
      book.is_shared ? 'yes' : 'no',
      book.owners.map((owner) => (typeof owner === 'number' ? owner : owner.username)).join(', '),
    ]),
  );
}

function contactRows(contacts: Contact[]): string {
  return formatTable(
    ['ID', 'NAME', 'NUMBER', 'SECONDARY', 'SPEED DIAL', 'COMPANY', 'PHONEBOOK'],
    contacts.map((c) => [
      c.id,
      c.display_name,
      c.number,
      c.secondary_number,
      c.speed_dial,
      c.company,
      c.phonebook,
    ]),
  );
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

function phonebookInput(options: PlatformArgs, current?: Phonebook): PhonebookInput {
  const description = options.description ?? current?.description;
  const priority = integer(options.priority, '--priority') ?? current?.priority;
  const isShared = options.shared ?? current?.is_shared;
  if (description === undefined) usage('--description is required.');
  if (priority === undefined) usage('--priority is required.');
  if (isShared === undefined) usage('Say --shared or --no-shared.');
  const owners = options.owner?.map((owner) => requiredInteger(owner, '--owner'));
  return {
    description,
    priority,
    is_shared: isShared,
    ...(owners ? { owners } : current ? { owners: current.owners.map((owner) => owner.id) } : {}),
  };
}

function contactInput(options: PlatformArgs, current?: Contact): ContactInput {
  const phonebook = integer(options.phonebook, '--phonebook') ?? current?.phonebook;
  const name = options.name ?? current?.display_name;
  const number = options.number ?? current?.number;
  const speedDial =
    integer(options['speed-dial'], '--speed-dial') ?? current?.speed_dial ?? undefined;
  if (phonebook === undefined) usage('--phonebook is required.');
  if (name === undefined) usage('--name is required.');
  if (number === undefined) usage('--number is required.');
  if (speedDial === undefined) usage('--speed-dial is required.');
  const secondary = options.secondary ?? current?.secondary_number ?? null;
  return {
    phonebook,
    display_name: name,
    number,
    secondary_number: secondary === '' ? null : secondary,
    speed_dial: speedDial,
    ...(options.company !== undefined || current?.company
      ? { company: options.company ?? current?.company ?? '' }
      : {}),
  };
}

const show = (io: CliIo, json: boolean, value: unknown, human: () => string) =>
  io.out(json ? JSON.stringify(value) : human());

/** `--all`: every item, following the platform's pages; otherwise the one page asked for. */
async function showList<T>(
  io: CliIo,
  options: PlatformArgs,
  noun: string,
  rows: (items: T[]) => string,
  fetch: { all: () => AsyncIterable<T>; page: (page: number | undefined) => Promise<Page<T>> },
): Promise<void> {
  if (options.all) {
    const all = await collect(fetch.all());
    return show(io, options.json, all, () => `${rows(all)}\n\n${all.length} ${noun}`);
  }
  const page = await fetch.page(integer(options.page, '--page'));
  const more = page.next ? ' (more: --page N, or --all)' : '';
  show(
    io,
    options.json,
    page,
    () => `${rows(page.results)}\n\n${page.results.length} of ${page.count} ${noun}${more}`,
  );
}

export const platformCommands: Record<string, Command> = {
  'phonebooks list': async (api, io, o) => {
    const query = listQuery(o);
    await showList(io, o, 'phonebooks', phonebookRows, {
      all: () => api.phonebooks.allPhonebooks(query),
      page: (page) => api.phonebooks.listPhonebooks({ ...query, page }),
    });
  },
  'phonebooks show': async (api, io, o) => {
    const book = await api.phonebooks.getPhonebook(
      requiredInteger(onlyArg(o, 'phonebook id'), 'The phonebook id'),
    );
    show(io, o.json, book, () =>
      [
        phonebookRows([book]),
        '',
        `Created ${book.created ?? 'unknown'}, modified ${book.modified ?? 'unknown'}`,
      ].join('\n'),
    );
  },
  'phonebooks create': async (api, io, o) => {
    const book = await api.phonebooks.createPhonebook(phonebookInput(o));
    show(io, o.json, book, () => `Created phonebook ${book.id}.\n\n${phonebookRows([book])}`);
  },
  'phonebooks update': async (api, io, o) => {
    const id = requiredInteger(onlyArg(o, 'phonebook id'), 'The phonebook id');
    const book = await api.phonebooks.updatePhonebook(
      id,
      phonebookInput(o, await api.phonebooks.getPhonebook(id)),
    );
    show(io, o.json, book, () => `Updated phonebook ${book.id}.\n\n${phonebookRows([book])}`);
  },
  'phonebooks delete': async (api, io, o) => {
    const id = requiredInteger(onlyArg(o, 'phonebook id'), 'The phonebook id');
    await api.phonebooks.deletePhonebook(id);
    show(io, o.json, { deleted: id }, () => `Deleted phonebook ${id}.`);
  },
  'contacts list': async (api, io, o) => {
    const query = { ...listQuery(o), phonebook: integer(o.phonebook, '--phonebook') };
    await showList(io, o, 'contacts', contactRows, {
      all: () => api.phonebooks.allContacts(query),
      page: (page) => api.phonebooks.listContacts({ ...query, page }),
    });
  },
  'contacts show': async (api, io, o) => {
    const contact = await api.phonebooks.getContact(
      requiredInteger(onlyArg(o, 'contact id'), 'The contact id'),
    );
    show(io, o.json, contact, () => contactRows([contact]));
  },
  'contacts create': async (api, io, o, directory) => {
    const contact = await api.phonebooks.createContact(contactInput(o));
    await updateDirectory(io, directory, (local) => local.upsertLocal(contact));
    show(io, o.json, contact, () => `Created contact ${contact.id}.\n\n${contactRows([contact])}`);
  },
  'contacts update': async (api, io, o, directory) => {
    const id = requiredInteger(onlyArg(o, 'contact id'), 'The contact id');
    const contact = await api.phonebooks.updateContact(
      id,
      contactInput(o, await api.phonebooks.getContact(id)),
    );
    await updateDirectory(io, directory, (local) => local.upsertLocal(contact));
    show(io, o.json, contact, () => `Updated contact ${contact.id}.\n\n${contactRows([contact])}`);
  },
  'contacts delete': async (api, io, o, directory) => {
    const id = requiredInteger(onlyArg(o, 'contact id'), 'The contact id');
    await api.phonebooks.deleteContact(id);
    await updateDirectory(io, directory, (local) => local.removeLocal([id]));
    show(io, o.json, { deleted: id }, () => `Deleted contact ${id}.`);
  },
  'contacts bulk-delete': async (api, io, o, directory) => {
    if (o.args.length === 0) usage('Give the ids of the contacts to delete.');
    const ids = o.args.map((arg) => requiredInteger(arg, 'Every contact id'));
    await api.phonebooks.bulkDeleteContacts(ids);
    await updateDirectory(io, directory, (local) => local.removeLocal(ids));
    show(io, o.json, { deleted: ids }, () => `Deleted ${ids.length} contacts: ${ids.join(', ')}.`);
  },
  dial: async (api, io, o) => {
    const accepted = await api.calls.clickToDial(o.args.join(' '));
    show(
      io,
      o.json,
      { dialing: true, ...accepted },
      () =>
        `Calling: your phone rings first; answer it and the platform dials the number.${accepted.call_leg_id ? `\nCall leg ${accepted.call_leg_id} (for callbar hangup).` : ''}`,
    );
  },
  hangup: async (api, io, o) => {
    const accepted = await api.calls.hangup(onlyArg(o, 'call leg id'));
    show(io, o.json, { hung_up: true, ...accepted }, () => 'Hung up.');
  },
};

const noDirectory: LocalDirectory = {
  upsertLocal: () => Promise.resolve(),
  removeLocal: () => Promise.resolve(),
};

/** Runs one platform command, turning every failure into a printed error and an exit code. */
export async function runPlatformCommand(
  command: Command,
  api: PlatformApi,
  io: CliIo,
  options: PlatformArgs,
  directory: () => Promise<LocalDirectory> = () => Promise.resolve(noDirectory),
): Promise<number> {
  try {
    await command(api, io, options, directory);
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CallbarError && error.code === 'usage') {
      io.err(`callbar: ${error.message}`);
      return ExitCode.usage;
    }
    const described = describeError(error);
    if (options.json) {
      const details =
        error instanceof ApiError ? { status: error.status, errors: error.errors } : {};
      io.out(JSON.stringify({ error: { ...described, ...details } }));
    } else {
      io.err(`callbar: ${described.message}`);
      if (error instanceof ApiError) {
        for (const fieldError of error.errors) {
          if (fieldError.attr) io.err(`  ${fieldError.attr}: ${fieldError.detail}`);
        }
      } else if (described.field) io.err(`  (field: ${described.field})`);
    }
    return exitCodeForError(error);
  }
}
