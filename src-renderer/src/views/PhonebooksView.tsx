import { useState } from 'react';
import type { PhonebookOrdering, PhonebookView } from '../../../src-preload/contract';
import { useAppStore } from '../store/app-store';
import { ConfirmDelete } from './ConfirmDelete';
import { ContactsView } from './ContactsView';
import { ListPager } from './ListPager';
import { ListTools } from './ListTools';
import { PhonebookEditor } from './PhonebookEditor';
import { useFocusOnMount } from './use-focus-on-mount';
import { useListQuery } from './use-list-query';
import { usePlatformList } from './use-platform-list';
import { Name } from './Isolated';

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
  const heading = useFocusOnMount<HTMLHeadingElement>();
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
  return (
    <section className="panel manage" aria-labelledby="phonebooks-title">
      <div className="manage-head">
        <h1 id="phonebooks-title" ref={heading} tabIndex={-1}>
          Phonebooks
        </h1>
        <button type="button" onClick={() => back('main')}>
          Back to search
        </button>
        <button type="button" className="primary" onClick={() => setEditing({ book: undefined })}>
          New phonebook
        </button>
      </div>
      <ListTools
        label="Search phonebooks"
        placeholder="Search phonebooks"
        list={query}
        orderings={ORDERINGS}
      />
      {list.error ? (
        <p role="alert" className="error">
          {list.error.message}
        </p>
      ) : null}
      <table className="manage-table" aria-busy={list.loading}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Priority</th>
            <th scope="col">Shared</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.page?.results.map((book) => (
            <tr key={book.id} data-testid="phonebook-row">
              <td>
                <button type="button" className="link" onClick={() => onOpen(book)}>
                  <Name>{book.description}</Name>
                </button>
              </td>
              <td>{book.priority}</td>
              <td>{book.is_shared ? 'Shared' : 'Personal'}</td>
              <td className="row-actions">
                <button
                  type="button"
                  aria-label={`Edit ${book.description}`}
                  onClick={() => setEditing({ book })}
                >
                  Edit
                </button>
                <button
                  type="button"
                  aria-label={`Delete ${book.description}`}
                  onClick={() => setDeleting(book)}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.page && list.page.results.length === 0 ? (
        <p className="empty">
          {query.query.search.trim() ? 'No phonebook matches.' : 'No phonebooks yet.'}
        </p>
      ) : null}
      <ListPager page={list.page} what="phonebooks" onPage={query.setPage} />
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
    </section>
  );
}
