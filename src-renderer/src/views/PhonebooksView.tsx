import { useState } from 'react';
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

const ORDERINGS: { value: PhonebookOrdering; label: string }[] = [
  { value: '-priority', label: 'Priority, highest first' },
  { value: 'priority', label: 'Priority, lowest first' },
  { value: 'description', label: 'Name, A to Z' },
  { value: '-description', label: 'Name, Z to A' },
  { value: '-is_shared', label: 'Shared first' },
  { value: 'is_shared', label: 'Personal first' },
];

/** The platform's phonebooks: search, order, create, edit, delete, and each one's contacts. */
export function PhonebooksView() {
  const [open, setOpen] = useState<PhonebookView | undefined>();
  if (open) return <ContactsView phonebook={open} onBack={() => setOpen(undefined)} />;
  return <PhonebookList onOpen={setOpen} />;
}

function PhonebookList({ onOpen }: { onOpen: (book: PhonebookView) => void }) {
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
      title="Phonebooks"
      back={{ label: 'Back to search', onClick: () => back('main') }}
      primary={{ label: 'New phonebook', onClick: create }}
      search={{ label: 'Search phonebooks', placeholder: 'Search phonebooks' }}
      query={query}
      orderings={ORDERINGS}
      list={list}
      what="phonebooks"
      tools={
        <ExportButtons
          requests={[
            { label: 'Export all (CSV)', request: { what: 'contacts', format: 'csv' } },
            { label: 'Export all (vCard)', request: { what: 'contacts', format: 'vcard' } },
          ]}
        />
      }
      empty={
        <>
          <p>No phonebooks yet.</p>
          <button type="button" className="primary" onClick={create}>
            New phonebook
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
              {book.is_shared ? 'Shared' : 'Personal'}
              <span className="list-row-tag">Priority {book.priority}</span>
            </>
          }
          actions={
            <RowMenu
              label={`More actions for ${book.description}`}
              actions={[
                { label: 'Edit', run: () => setEditing({ book }) },
                { label: 'Delete', danger: true, run: () => setDeleting(book) },
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
            <>
              Delete the phonebook “<Name>{deleting.description}</Name>”?
            </>
          }
          action="Delete phonebook"
          remove={() => window.callbar.phonebooks.delete({ id: deleting.id })}
          onCancel={() => setDeleting(undefined)}
          onDeleted={() => {
            setDeleting(undefined);
            list.reload();
          }}
        >
          <p>Its contacts are deleted with it, for everyone who uses it.</p>
        </ConfirmDelete>
      ) : null}
    </ListScreen>
  );
}
