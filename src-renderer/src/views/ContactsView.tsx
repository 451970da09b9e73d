import { useState } from 'react';
import type { ContactOrdering, ContactView, PhonebookView } from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ContactEditor } from './ContactEditor';
import { ExportButtons } from '../components/ExportButtons';
import { crmParty, useCrmLinks } from '../hooks/use-crm-links';
import { ImportButton } from './ImportDialog';
import { Name, PhoneNumber } from '../components/Isolated';
import { ListRow, ListScreen } from '../components/ListScreen';
import { RowMenu } from '../components/RowMenu';
import { useListQuery } from '../hooks/use-list-query';
import { usePlatformList } from '../hooks/use-platform-list';

const ORDERINGS: { value: ContactOrdering; label: string }[] = [
  { value: 'display_name', label: 'Name, A to Z' },
  { value: '-display_name', label: 'Name, Z to A' },
  { value: 'company', label: 'Company, A to Z' },
  { value: 'number', label: 'Number' },
  { value: 'speed_dial', label: 'Speed dial' },
];

type Deleting = { ids: number[]; label: string; done?: () => void };

/**
 * The contacts of one phonebook: search, order, create, edit (click or Enter on a row), call,
 * delete one (its "⋯" menu) or several (selection mode).
 */
export function ContactsView({
  phonebook,
  onBack,
}: {
  phonebook: PhonebookView;
  onBack: () => void;
}) {
  const show = useAppStore((state) => state.show);
  const dial = useAppStore((state) => state.dial);
  const query = useListQuery<ContactOrdering>('display_name');
  const [editing, setEditing] = useState<{ contact: ContactView | undefined } | undefined>();
  const [deleting, setDeleting] = useState<Deleting | undefined>();
  const crm = useCrmLinks();
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
  const create = () => setEditing({ contact: undefined });
  // The same dial as the search's (its confirmations and refusals); the call bar is on the
  // search view, so that is where it goes.
  const call = (contact: ContactView) => {
    show('main');
    void dial(contact.number, 'ui', contact.display_name);
  };
  return (
    <ListScreen
      titleId="contacts-title"
      title={<Name>{phonebook.description}</Name>}
      back={{ label: 'All phonebooks', onClick: onBack }}
      primary={{ label: 'New contact', onClick: create }}
      search={{ label: 'Search contacts', placeholder: 'Search name, number, company, speed dial' }}
      query={query}
      orderings={ORDERINGS}
      list={list}
      what="contacts"
      tools={
        <>
          <ImportButton phonebook={phonebook.id} onDone={list.reload} />
          <ExportButtons
            requests={[
              {
                label: 'Export CSV',
                request: { what: 'contacts', phonebook: phonebook.id, format: 'csv' },
              },
              {
                label: 'Export vCard',
                request: { what: 'contacts', phonebook: phonebook.id, format: 'vcard' },
              },
            ]}
          />
        </>
      }
      empty={
        <>
          <p>
            No contacts in this phonebook yet. Add one, or bring a CSV or vCard file in with
            Import….
          </p>
          <button type="button" className="primary" onClick={create}>
            Add contact
          </button>
        </>
      }
      onDeleteSelected={(ids, done) =>
        setDeleting({ ids, label: ids.length === 1 ? '1 contact' : `${ids.length} contacts`, done })
      }
      renderRow={(contact, selection) => (
        <ListRow
          key={contact.id}
          testId="contact-row"
          selection={selection}
          name={contact.display_name}
          title={<Name>{contact.display_name}</Name>}
          openLabel={`Edit ${contact.display_name}`}
          onOpen={() => setEditing({ contact })}
          detail={
            <>
              <PhoneNumber>{contact.number}</PhoneNumber>
              {contact.speed_dial ? (
                <span className="list-row-tag">
                  Speed dial <PhoneNumber>{contact.speed_dial}</PhoneNumber>
                </span>
              ) : null}
              {contact.company ? (
                <span className="list-row-company">
                  <Name>{contact.company}</Name>
                </span>
              ) : null}
            </>
          }
          actions={
            <>
              <button
                type="button"
                className="list-row-call"
                aria-label={`Call ${contact.display_name}`}
                onClick={() => call(contact)}
              >
                Call
              </button>
              <RowMenu
                label={`More actions for ${contact.display_name}`}
                actions={[
                  ...crm.links.map((link) => ({
                    label: `Open in ${link.label}`,
                    run: () =>
                      void crm.open(
                        link.index,
                        crmParty(contact.number, contact.display_name, contact.company),
                      ),
                  })),
                  {
                    label: 'Delete',
                    danger: true,
                    run: () => setDeleting({ ids: [contact.id], label: contact.display_name }),
                  },
                ]}
              />
            </>
          }
        />
      )}
    >
      {crm.error ? (
        <p role="alert" className="error">
          {crm.error}
        </p>
      ) : null}
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
            deleting.done?.();
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
    </ListScreen>
  );
}
