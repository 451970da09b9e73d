/**
 * `callbar contacts …`: list, show, create, update and delete phonebook contacts. The changes go
 * through the editing layer the window uses (core/phonebooks/phonebook-editor.ts): the same
 * checks, the same refusals in words, the same update of this computer's directory.
 */
import type { ContactFields } from '../../../src-shared/contract';
import type { Contact } from '../../core/api/schemas';
import { integer, required, requiredInteger } from '../arguments';
import { defineCommand, type CommandGroup } from '../command';
import { cliPhonebookEditor } from './directory-commands';
import { listOptions, listQuery, listUsage, show, showList } from '../list-output';
import { formatTable } from '../table';

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

/**
 * The contact's fields as given (the editor checks them); for an update, unchanged fields come
 * from the current one.
 */
function contactFields(values: FieldValues, current?: Contact): ContactFields {
  return {
    phonebook: required(
      integer(values.phonebook, '--phonebook') ?? current?.phonebook,
      '--phonebook is required.',
    ),
    display_name: required(values.name ?? current?.display_name, '--name is required.'),
    number: required(values.number ?? current?.number, '--number is required.'),
    secondary_number: values.secondary ?? current?.secondary_number ?? null,
    speed_dial: required(
      integer(values['speed-dial'], '--speed-dial') ?? current?.speed_dial ?? undefined,
      '--speed-dial is required.',
    ),
    company: values.company ?? current?.company ?? '',
  };
}

const ID = { name: 'ID', min: 1 } as const;
const id = (args: string[]) => requiredInteger(args[0], 'The contact id');
const fieldUsage =
  '--phonebook ID --name N --number X --speed-dial N [--secondary X] [--company C]';

export const contactCommands: CommandGroup = {
  title: 'Contacts',
  commands: [
    defineCommand({
      name: 'contacts list',
      usage: `[--phonebook ID] ${listUsage}`,
      summary: 'List contacts, of one phonebook or all (one page, or --all)',
      options: { ...listOptions, phonebook: { type: 'string' } },
      async run(ctx, { values }) {
        const list = listQuery(values);
        const query = { ...list.query, phonebook: integer(values.phonebook, '--phonebook') };
        const api = await ctx.platform();
        await showList(ctx, { all: values.all, page: list.page }, 'contacts', contactRows, {
          all: () => api.phonebooks.allContacts(query),
          page: (page) => api.phonebooks.listContacts({ ...query, page }),
        });
      },
    }),
    defineCommand({
      name: 'contacts show',
      usage: 'ID',
      summary: 'Show one contact',
      args: ID,
      async run(ctx, { args }) {
        const contactId = id(args);
        const contact = await (await ctx.platform()).phonebooks.getContact(contactId);
        show(ctx, contact, () => contactRows([contact]));
      },
    }),
    defineCommand({
      name: 'contacts create',
      usage: fieldUsage,
      summary: 'Create a contact',
      options: fieldOptions,
      async run(ctx, { values }) {
        const fields = contactFields(values);
        const contact = await (await cliPhonebookEditor(ctx)).createContact(fields);
        show(ctx, contact, () => `Created contact ${contact.id}.\n\n${contactRows([contact])}`);
      },
    }),
    defineCommand({
      name: 'contacts update',
      usage:
        'ID [--phonebook ID] [--name N] [--number X] [--speed-dial N] [--secondary X] [--company C]',
      summary: 'Change a contact (fields not given stay as they are)',
      options: fieldOptions,
      args: ID,
      async run(ctx, { values, args }) {
        const contactId = id(args);
        const api = await ctx.platform();
        const fields = contactFields(values, await api.phonebooks.getContact(contactId));
        const contact = await (await cliPhonebookEditor(ctx)).updateContact(contactId, fields);
        show(ctx, contact, () => `Updated contact ${contact.id}.\n\n${contactRows([contact])}`);
      },
    }),
    defineCommand({
      name: 'contacts delete',
      usage: 'ID',
      summary: 'Delete a contact',
      args: ID,
      async run(ctx, { args }) {
        const contactId = id(args);
        await (await cliPhonebookEditor(ctx)).deleteContact(contactId);
        show(ctx, { deleted: contactId }, () => `Deleted contact ${contactId}.`);
      },
    }),
    defineCommand({
      name: 'contacts bulk-delete',
      usage: 'ID…',
      summary: 'Delete several contacts at once (all or nothing)',
      args: { name: 'ID', min: 1, max: Infinity },
      async run(ctx, { args }) {
        const ids = args.map((arg) => requiredInteger(arg, 'Every contact id'));
        await (await cliPhonebookEditor(ctx)).bulkDeleteContacts(ids);
        show(ctx, { deleted: ids }, () => `Deleted ${ids.length} contacts: ${ids.join(', ')}.`);
      },
    }),
  ],
};
