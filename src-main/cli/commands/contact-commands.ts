/**
 * `callbar contacts …`: list, show, create, update and delete phonebook contacts. The changes go
 * through the editing layer the window uses (core/phonebooks/phonebook-editor.ts): the same
 * checks, the same refusals in words, the same update of this computer's directory.
 */
import type { ContactFields } from '../../../src-shared/contract';
import type { Contact } from '../../core/api/schemas';
import { said, type Translate } from '../../core/text/said';
import { integer, positiveInteger, required, requiredId } from '../arguments';
import { defineCommand, type CommandContext, type CommandGroup } from '../command';
import { cliPhonebookEditor } from './directory-commands';
import { listOptions, listQuery, listUsage, show, showList } from '../list-output';
import { formatTable } from '../table';

/** The contacts as a table, their numbers as `shown` shows them (--json: as stored). */
function contactRows(t: Translate, contacts: Contact[], shown: (number: string) => string): string {
  return formatTable(
    t,
    ['ID', 'NAME', 'NUMBER', 'SECONDARY', 'SPEED DIAL', 'COMPANY', 'PHONEBOOK'],
    contacts.map((c) => [
      c.id,
      c.display_name,
      shown(c.number),
      c.secondary_number === null ? null : shown(c.secondary_number),
      c.speed_dial,
      c.company,
      c.phonebook,
    ]),
  );
}

const fieldOptions = {
  phonebook: { type: 'string' },
  name: { type: 'string' },
  number: { type: 'string' },
  secondary: { type: 'string' },
  'speed-dial': { type: 'string' },
  company: { type: 'string' },
} as const;

interface FieldValues {
  phonebook?: string;
  name?: string;
  number?: string;
  secondary?: string;
  'speed-dial'?: string;
  company?: string;
}

/** The options as typed values: a usage error is said before anything is asked of the platform. */
function typed(values: FieldValues) {
  return {
    ...values,
    phonebook: positiveInteger(values.phonebook, '--phonebook'),
    'speed-dial': integer(values['speed-dial'], '--speed-dial'),
  };
}

/**
 * The contact's fields as given (the editor checks them); for an update, unchanged fields come
 * from the current one.
 */
function contactFields(values: ReturnType<typeof typed>, current?: Contact): ContactFields {
  return {
    phonebook: required(values.phonebook ?? current?.phonebook, isRequired('--phonebook')),
    display_name: required(values.name ?? current?.display_name, isRequired('--name')),
    number: required(values.number ?? current?.number, isRequired('--number')),
    secondary_number: values.secondary ?? current?.secondary_number ?? null,
    speed_dial: required(
      values['speed-dial'] ?? current?.speed_dial ?? undefined,
      isRequired('--speed-dial'),
    ),
    company: values.company ?? current?.company ?? '',
  };
}

const isRequired = (option: string) => said('cli:usage.isRequired', { what: option });
const ID = { name: 'ID', min: 1 } as const;
const id = (args: string[]) => requiredId(args[0], said('cli:usage.contactId'));
/** The table of contacts, numbers shown in the user's region now (core loaded when it runs). */
const rows = async (ctx: CommandContext) => {
  const region = (await ctx.profile()).region.current();
  const { shownNumber } = await import('../../core/numbers/number-format');
  return (contacts: Contact[]) =>
    contactRows(ctx.t, contacts, (number) => shownNumber(number, region));
};
const fieldUsage =
  '--phonebook ID --name N --number X --speed-dial N [--secondary X] [--company C]';

export const contactCommands: CommandGroup = {
  title: 'contacts',
  commands: [
    defineCommand({
      name: 'contacts list',
      usage: `[--phonebook ID] ${listUsage}`,
      options: { ...listOptions, phonebook: { type: 'string' } },
      async run(ctx, { values }) {
        const list = listQuery(values);
        const query = {
          ...list.query,
          phonebook: positiveInteger(values.phonebook, '--phonebook'),
        };
        const api = await ctx.platform();
        await showList(ctx, { all: values.all, page: list.page }, 'contacts', await rows(ctx), {
          all: () => api.phonebooks.allContacts(query),
          page: (page) => api.phonebooks.listContacts({ ...query, page }),
        });
      },
    }),
    defineCommand({
      name: 'contacts show',
      usage: 'ID',
      args: ID,
      async run(ctx, { args }) {
        const contactId = id(args);
        const contact = await (await ctx.platform()).phonebooks.getContact(contactId);
        const table = await rows(ctx);
        show(ctx, contact, () => table([contact]));
      },
    }),
    defineCommand({
      name: 'contacts create',
      usage: fieldUsage,
      options: fieldOptions,
      async run(ctx, { values }) {
        const fields = contactFields(typed(values));
        const contact = await (await cliPhonebookEditor(ctx)).createContact(fields);
        const table = await rows(ctx);
        show(
          ctx,
          contact,
          () => `${ctx.t('contacts.created', { id: contact.id })}\n\n${table([contact])}`,
        );
      },
    }),
    defineCommand({
      name: 'contacts update',
      usage:
        'ID [--phonebook ID] [--name N] [--number X] [--speed-dial N] [--secondary X] [--company C]',
      options: fieldOptions,
      args: ID,
      async run(ctx, { values, args }) {
        const contactId = id(args);
        const changes = typed(values);
        const api = await ctx.platform();
        const fields = contactFields(changes, await api.phonebooks.getContact(contactId));
        const contact = await (await cliPhonebookEditor(ctx)).updateContact(contactId, fields);
        const table = await rows(ctx);
        show(
          ctx,
          contact,
          () => `${ctx.t('contacts.updated', { id: contact.id })}\n\n${table([contact])}`,
        );
      },
    }),
    defineCommand({
      name: 'contacts delete',
      usage: 'ID',
      args: ID,
      async run(ctx, { args }) {
        const contactId = id(args);
        await (await cliPhonebookEditor(ctx)).deleteContact(contactId);
        show(ctx, { deleted: contactId }, () => ctx.t('contacts.deleted', { id: contactId }));
      },
    }),
    defineCommand({
      name: 'contacts bulk-delete',
      usage: 'ID…',
      args: { name: 'ID', min: 1, max: Infinity },
      async run(ctx, { args }) {
        const ids = args.map((arg) => requiredId(arg, said('cli:usage.everyContactId')));
        await (await cliPhonebookEditor(ctx)).bulkDeleteContacts(ids);
        show(ctx, { deleted: ids }, () =>
          ctx.t('contacts.bulkDeleted', { count: ids.length, ids: ids.join(', ') }),
        );
      },
    }),
  ],
};
