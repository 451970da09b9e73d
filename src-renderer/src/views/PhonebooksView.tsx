import { useState } from 'react';
import { useTranslation } from '../i18n';
import { Message } from '../components/Message';
import type { PhonebookOrdering, PhonebookView } from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ContactsView } from './ContactsView';
import { ListRow, ListScreen } from '../components/ListScreen';
import { PhonebookEditor } from './PhonebookEditor';
import { RowMenu } from '../components/RowMenu';
import { Icon } from '../components/Icon';
import { ExportProgress } from '../components/ExportProgress';
import { useExportDownload } from '../hooks/use-export-download';
import { useListQuery } from '../hooks/use-list-query';
import { usePagedList } from '../hooks/use-paged-list';
import { Name } from '../components/Isolated';
import { CoreAlert } from '../components/CoreText';

/** The orders the list offers (their words: the catalog's `phonebooks.order.<value>`). */
const ORDERINGS: PhonebookOrdering[] = [
  'description',
  '-description',
  '-priority',
  'priority',
  '-is_shared',
  'is_shared',
];

/** The platform's phonebooks: search, order, create, edit, delete, and each one's contacts. */
export function PhonebooksView() {
  const [open, setOpen] = useState<PhonebookView | undefined>();
  if (open) return <ContactsView phonebook={open} onBack={() => setOpen(undefined)} />;
  return <PhonebookList onOpen={setOpen} />;
}

/**
 * Every phonebook as one list: its name, shared or personal (with the mark for it), how many
 * contacts; its priority only while the list is ordered by it (it decides which phonebook's
 * contact comes first in the search, and nothing else a person sees).
 */
function PhonebookList({ onOpen }: { onOpen: (book: PhonebookView) => void }) {
  const { t } = useTranslation();
  const back = useAppStore((state) => state.show);
  const query = useListQuery<PhonebookOrdering>('description');
  const [editing, setEditing] = useState<{ book: PhonebookView | undefined } | undefined>();
  const [deleting, setDeleting] = useState<PhonebookView | undefined>();
  const exporting = useExportDownload();
  const list = usePagedList(
    (page) =>
      window.callbar.phonebooks.list({
        ...query.searchParam,
        ordering: query.query.ordering,
        page,
      }),
    query.key,
  );
  const byPriority = query.query.ordering.endsWith('priority');
  const create = () => setEditing({ book: undefined });
  return (
    <ListScreen
      titleId="phonebooks-title"
      title={t('phonebooks.title')}
      back={{ to: t('search.short'), onClick: () => back('main') }}
      primary={{ label: t('phonebooks.new'), onClick: create }}
      search={{ label: t('phonebooks.search'), placeholder: t('phonebooks.search') }}
      query={query}
      orderings={ORDERINGS.map((value) => ({ value, label: t(`phonebooks.order.${value}`) }))}
      list={list}
      what="phonebooks"
      more={[
        {
          label: t('phonebooks.exportAllCsv'),
          run: () => void exporting.save({ what: 'contacts', format: 'csv' }),
        },
        {
          label: t('phonebooks.exportAllVcard'),
          run: () => void exporting.save({ what: 'contacts', format: 'vcard' }),
        },
      ]}
      empty={<p>{t('phonebooks.empty')}</p>}
      renderRow={(book, selection) => (
        <ListRow
          testId="phonebook-row"
          selection={selection}
          name={book.description}
          leading={
            <span className="avatar" data-tint="none" aria-hidden="true">
              <Icon name={book.is_shared ? 'shared' : 'personal'} />
            </span>
          }
          title={<Name>{book.description}</Name>}
          onOpen={() => onOpen(book)}
          detail={
            <>
              <span data-testid="phonebook-kind">
                {book.is_shared ? t('phonebooks.shared') : t('phonebooks.personal')}
              </span>
              {book.contacts !== undefined ? (
                <span data-testid="phonebook-count">
                  {t('phonebooks.contactCount', { count: book.contacts })}
                </span>
              ) : null}
              {byPriority ? (
                <span className="row-tag">
                  {t('phonebooks.priorityValue', { priority: book.priority })}
                </span>
              ) : null}
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
      <ExportProgress busy={exporting.busy} />
      <CoreAlert text={exporting.error} testId="export-error" />
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
