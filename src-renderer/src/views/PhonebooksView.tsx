import { useState } from 'react';
import { useTranslation } from '../i18n';
import { Message } from '../components/Message';
import type { PhonebookOrdering, PhonebookView } from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ContactsView } from './ContactsView';
import { ListRow, ListScreen } from '../components/ListScreen';
import { ExportButtons } from '../components/ExportButtons';
import { PhonebookEditor } from './PhonebookEditor';
import { RowMenu } from '../components/RowMenu';
import { useListQuery } from '../hooks/use-list-query';
import { usePlatformList } from '../hooks/use-platform-list';
import { Name } from '../components/Isolated';

/** The orders the list offers (their words: the catalog's `phonebooks.order.<value>`). */
const ORDERINGS: PhonebookOrdering[] = [
  '-priority',
  'priority',
  'description',
  '-description',
  '-is_shared',
  'is_shared',
];

/** The platform's phonebooks: search, order, create, edit, delete, and each one's contacts. */
export function PhonebooksView() {
  const [open, setOpen] = useState<PhonebookView | undefined>();
  if (open) return <ContactsView phonebook={open} onBack={() => setOpen(undefined)} />;
  return <PhonebookList onOpen={setOpen} />;
}

function PhonebookList({ onOpen }: { onOpen: (book: PhonebookView) => void }) {
  const { t } = useTranslation();
  const back = useAppStore((state) => state.show);
  const query = useListQuery<PhonebookOrdering>('-priority');
  const [editing, setEditing] = useState<{ book: PhonebookView | undefined } | undefined>();
  const [deleting, setDeleting] = useState<PhonebookView | undefined>();
  const list = usePlatformList(
    () =>
      window.callbar.phonebooks.list({
        ...query.searchParam,
        ordering: query.query.ordering,
        page: query.query.page,
      }),
    query.key,
  );
  const create = () => setEditing({ book: undefined });
  return (
    <ListScreen
      titleId="phonebooks-title"
      title={t('phonebooks.title')}
      back={{ label: t('common.backToSearch'), onClick: () => back('main') }}
      primary={{ label: t('phonebooks.new'), onClick: create }}
      search={{ label: t('phonebooks.search'), placeholder: t('phonebooks.search') }}
      query={query}
      orderings={ORDERINGS.map((value) => ({ value, label: t(`phonebooks.order.${value}`) }))}
      list={list}
      what="phonebooks"
      tools={
        <ExportButtons
          requests={[
            { label: t('phonebooks.exportAllCsv'), request: { what: 'contacts', format: 'csv' } },
            {
              label: t('phonebooks.exportAllVcard'),
              request: { what: 'contacts', format: 'vcard' },
            },
          ]}
        />
      }
      empty={
        <>
          <p>{t('phonebooks.empty')}</p>
          <button type="button" className="primary" onClick={create}>
            {t('phonebooks.new')}
          </button>
        </>
      }
      renderRow={(book, selection) => (
        <ListRow
          key={book.id}
          testId="phonebook-row"
          selection={selection}
          name={book.description}
          title={<Name>{book.description}</Name>}
          onOpen={() => onOpen(book)}
          detail={
            <>
              {book.is_shared ? t('phonebooks.shared') : t('phonebooks.personal')}
              <span className="list-row-tag">
                {t('phonebooks.priorityValue', { priority: book.priority })}
              </span>
            </>
          }
          actions={
            <RowMenu
              label={t('common.moreActions', { name: book.description })}
              actions={[
                { label: t('common.edit'), run: () => setEditing({ book }) },
                { label: t('common.delete'), danger: true, run: () => setDeleting(book) },
              ]}
            />
          }
        />
      )}
    >
      {editing ? (
        <PhonebookEditor
          book={editing.book}
          onCancel={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            list.reload();
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDelete
          title={
            <Message
              id="phonebooks.deleteTitle"
              values={{ name: <Name>{deleting.description}</Name> }}
            />
          }
          action={t('phonebooks.delete')}
          remove={() => window.callbar.phonebooks.delete({ id: deleting.id })}
          onCancel={() => setDeleting(undefined)}
          onDeleted={() => {
            setDeleting(undefined);
            list.reload();
          }}
        >
          <p>{t('phonebooks.deleteExplained')}</p>
        </ConfirmDelete>
      ) : null}
    </ListScreen>
  );
}
