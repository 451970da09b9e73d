import { ImportButton } from './ImportDialog';
import { useState } from 'react';
import type { ContactOrdering, ContactView, PhonebookView } from '../../../src-preload/contract';
import { ConfirmDelete } from './ConfirmDelete';
import { ContactEditor } from './ContactEditor';
import { Name, PhoneNumber } from './Isolated';
import { ListPager } from './ListPager';
import { ListTools } from './ListTools';
import { useFocusOnMount } from './use-focus-on-mount';
import { useListQuery } from './use-list-query';
import { usePlatformList } from './use-platform-list';

const ORDERINGS: { value: ContactOrdering; label: string }[] = [
  { value: 'display_name', label: 'Name, A to Z' },
  { value: '-display_name', label: 'Name, Z to A' },
  { value: 'company', label: 'Company, A to Z' },
  { value: 'number', label: 'Number' },
  { value: 'speed_dial', label: 'Speed dial' },
];

type Deleting = { ids: number[]; label: string };

/** The contacts of one phonebook: search, order, create, edit, delete one or several. */
export function ContactsView({
  phonebook,
  onBack,
}: {
  phonebook: PhonebookView;
  onBack: () => void;
}) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const query = useListQuery<ContactOrdering>('display_name');
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [editing, setEditing] = useState<{ contact: ContactView | undefined } | undefined>();
  const [deleting, setDeleting] = useState<Deleting | undefined>();
  const list = usePlatformList(
    () =>
      window.callbar.contacts.list({
        phonebook: phonebook.id,
        ...query.searchParam,
        ordering: query.query.ordering,
        page: query.query.page,
      }),
    query.key,
  );
  const rows = list.page?.results ?? [];
  const toggle = (id: number, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allChosen = rows.length > 0 && rows.every((row) => chosen.has(row.id));
  const count = chosen.size;
  return (
    <section className="panel manage" aria-labelledby="contacts-title">
      <div className="manage-head">
        <h1 id="contacts-title" ref={heading} tabIndex={-1}>
          <Name>{phonebook.description}</Name>
        </h1>
        <button type="button" onClick={onBack}>
          All phonebooks
        </button>
        <ImportButton phonebook={phonebook.id} onDone={list.reload} />
        <button
          type="button"
          className="primary"
          onClick={() => setEditing({ contact: undefined })}
        >
          New contact
        </button>
      </div>
      <ListTools
        label="Search contacts"
        placeholder="Search name, number, company, speed dial"
        list={query}
        orderings={ORDERINGS}
      >
        <button
          type="button"
          className="danger"
          disabled={count === 0}
          onClick={() =>
            setDeleting({
              ids: [...chosen],
              label: count === 1 ? '1 contact' : `${count} contacts`,
            })
          }
        >
          Delete selected{count > 0 ? ` (${count})` : ''}
        </button>
      </ListTools>
      {list.error ? (
        <p role="alert" className="error">
          {list.error.message}
        </p>
      ) : null}
      <table className="manage-table" aria-busy={list.loading}>
        <thead>
          <tr>
            <th scope="col">
              <input
                type="checkbox"
                aria-label="Select every contact on this page"
                checked={allChosen}
                onChange={(event) => {
                  for (const row of rows) toggle(row.id, event.target.checked);
                }}
              />
            </th>
            <th scope="col">Name</th>
            <th scope="col" className="wide">
              Company
            </th>
            <th scope="col">Number</th>
            <th scope="col">Speed dial</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((contact) => (
            <tr key={contact.id} data-testid="contact-row">
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select ${contact.display_name}`}
                  checked={chosen.has(contact.id)}
                  onChange={(event) => toggle(contact.id, event.target.checked)}
                />
              </td>
              <td>
                <Name>{contact.display_name}</Name>
              </td>
              <td className="wide">
                <Name>{contact.company}</Name>
              </td>
              <td>
                <PhoneNumber>{contact.number}</PhoneNumber>
                {contact.secondary_number ? (
                  <div className="hint">
                    <PhoneNumber>{contact.secondary_number}</PhoneNumber>
                  </div>
                ) : null}
              </td>
              <td>
                <PhoneNumber>{contact.speed_dial ?? ''}</PhoneNumber>
              </td>
              <td className="row-actions">
                <button
                  type="button"
                  aria-label={`Edit ${contact.display_name}`}
                  onClick={() => setEditing({ contact })}
                >
                  Edit
                </button>
                <button
                  type="button"
                  aria-label={`Delete ${contact.display_name}`}
                  onClick={() => setDeleting({ ids: [contact.id], label: contact.display_name })}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.page && rows.length === 0 ? (
        <p className="empty">
          {query.query.search.trim() ? 'No contact matches.' : 'No contacts yet.'}
        </p>
      ) : null}
      <ListPager page={list.page} what="contacts" onPage={query.setPage} />
      {editing ? (
        <ContactEditor
          phonebook={phonebook.id}
          contact={editing.contact}
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
              Delete <Name>{deleting.label}</Name>?
            </>
          }
          action={deleting.ids.length === 1 ? 'Delete' : `Delete ${deleting.label}`}
          remove={() =>
            deleting.ids.length === 1
              ? window.callbar.contacts.delete({ id: deleting.ids[0]! })
              : window.callbar.contacts.bulkDelete({ ids: deleting.ids })
          }
          onCancel={() => setDeleting(undefined)}
          onDeleted={() => {
            setDeleting(undefined);
            setChosen(new Set());
            list.reload();
          }}
        >
          <p>
            {deleting.ids.length === 1
              ? 'The contact is removed from this phonebook for everyone who uses it.'
              : `All ${deleting.ids.length} are deleted, or none of them if the platform refuses one.`}
          </p>
        </ConfirmDelete>
      ) : null}
    </section>
  );
}
