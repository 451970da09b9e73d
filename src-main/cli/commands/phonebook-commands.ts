/**
 * `callbar phonebooks …`: list, show, create, update and delete phonebooks. The changes go
 * through the editing layer the window uses (core/phonebooks/phonebook-editor.ts).
 */
import type { PhonebookFields } from '../../../src-shared/contract';
import type { Phonebook, WrittenPhonebook } from '../../core/api/schemas';
import { said, type Translate } from '../../core/text/said';
import { terminalField } from '../../core/text/terminal-text';
import { integer, required, requiredId } from '../arguments';
import { defineCommand, type CommandGroup } from '../command';
import { cliPhonebookEditor } from './directory-commands';
import { listOptions, listQuery, listUsage, show, showList } from '../list-output';
import { formatTable } from '../table';

function phonebookRows(t: Translate, phonebooks: (Phonebook | WrittenPhonebook)[]): string {
  return formatTable(
    t,
    ['ID', 'DESCRIPTION', 'PRIORITY', 'SHARED', 'OWNERS'],
    phonebooks.map((book) => [
      book.id,
      book.description,
      book.priority,
      t(book.is_shared ? 'tables.yes' : 'tables.no'),
      book.owners.map((owner) => (typeof owner === 'number' ? owner : owner.username)).join(', '),
    ]),
  );
}

const fieldOptions = {
  description: { type: 'string' },
  priority: { type: 'string' },
  shared: { type: 'boolean' },
  owner: { type: 'string', multiple: true },
} as const;

interface FieldValues {
  description?: string;
  priority?: string;
  shared?: boolean;
  owner?: string[];
}

/** The options as typed values: a usage error is said before anything is asked of the platform. */
function typed(values: FieldValues) {
  return { ...values, priority: integer(values.priority, '--priority') };
}

/**
 * The phonebook's fields as given (the editor checks them); for an update, unchanged fields come
 * from the current one (and the owners stay unless --owner is given).
 */
function phonebookFields(values: ReturnType<typeof typed>, current?: Phonebook): PhonebookFields {
  return {
    description: required(
      values.description ?? current?.description,
      said('cli:usage.isRequired', { what: '--description' }),
    ),
    priority: required(
      values.priority ?? current?.priority,
      said('cli:usage.isRequired', { what: '--priority' }),
    ),
    is_shared: required(values.shared ?? current?.is_shared, said('cli:usage.sayShared')),
  };
}

const ownersOf = (values: FieldValues) =>
  values.owner?.map((owner) => requiredId(owner, '--owner'));

const ID = { name: 'ID', min: 1 } as const;
const id = (args: string[]) => requiredId(args[0], said('cli:usage.phonebookId'));

export const phonebookCommands: CommandGroup = {
  title: 'phonebooks',
  commands: [
    defineCommand({
      name: 'phonebooks list',
      usage: listUsage,
      options: listOptions,
      async run(ctx, { values }) {
        const { query, page } = listQuery(values);
        const api = await ctx.platform();
        const rows = (books: Phonebook[]) => phonebookRows(ctx.t, books);
        await showList(ctx, { all: values.all, page }, 'phonebooks', rows, {
          all: () => api.phonebooks.allPhonebooks(query),
          page: (number) => api.phonebooks.listPhonebooks({ ...query, page: number }),
        });
      },
    }),
    defineCommand({
      name: 'phonebooks show',
      usage: 'ID',
      args: ID,
      async run(ctx, { args }) {
        const bookId = id(args);
        const book = await (await ctx.platform()).phonebooks.getPhonebook(bookId);
        const { t } = ctx;
        show(ctx, book, () =>
          [
            phonebookRows(t, [book]),
            '',
            t('phonebooks.dates', {
              created: terminalField(book.created ?? t('phonebooks.unknown')),
              modified: terminalField(book.modified ?? t('phonebooks.unknown')),
            }),
          ].join('\n'),
        );
      },
    }),
    defineCommand({
      name: 'phonebooks create',
      usage: '--description D --priority N --shared|--no-shared [--owner ID]…',
      options: fieldOptions,
      async run(ctx, { values }) {
        const fields = phonebookFields(typed(values));
        const owners = ownersOf(values);
        const book = await (await cliPhonebookEditor(ctx)).createPhonebook(fields, owners);
        show(
          ctx,
          book,
          () =>
            `${ctx.t('phonebooks.created', { id: book.id })}\n\n${phonebookRows(ctx.t, [book])}`,
        );
      },
    }),
    defineCommand({
      name: 'phonebooks update',
      usage: 'ID [--description D] [--priority N] [--shared|--no-shared] [--owner ID]…',
      options: fieldOptions,
      args: ID,
      async run(ctx, { values, args }) {
        const bookId = id(args);
        const given = ownersOf(values);
        const changes = typed(values);
        const current = await (await ctx.platform()).phonebooks.getPhonebook(bookId);
        const owners = given ?? current.owners.map((owner) => owner.id);
        const fields = phonebookFields(changes, current);
        const book = await (await cliPhonebookEditor(ctx)).updatePhonebook(bookId, fields, owners);
        show(
          ctx,
          book,
          () =>
            `${ctx.t('phonebooks.updated', { id: book.id })}\n\n${phonebookRows(ctx.t, [book])}`,
        );
      },
    }),
    defineCommand({
      name: 'phonebooks delete',
      usage: 'ID',
      args: ID,
      async run(ctx, { args }) {
        const bookId = id(args);
        await (await cliPhonebookEditor(ctx)).deletePhonebook(bookId);
        show(ctx, { deleted: bookId }, () => ctx.t('phonebooks.deleted', { id: bookId }));
      },
    }),
  ],
};
