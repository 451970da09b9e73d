import { useState } from 'react';
import { useTranslation } from '../i18n';
import { Message } from '../components/Message';
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

/** The orders a contact list offers (their words: the catalog's `contacts.order.<value>`). */
const ORDERINGS: ContactOrdering[] = [
  'display_name',
  '-display_name',
  'company',
  'number',
  'speed_dial',
];

/** What is being deleted: one contact (its name) or several (how many). */
type Deleting = { ids: number[]; name?: string; done?: () => void };

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
  const { t } = useTranslation();
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
      back={{ label: t('contacts.allPhonebooks'), onClick: onBack }}
      primary={{ label: t('contacts.new'), onClick: create }}
      search={{ label: t('contacts.search'), placeholder: t('contacts.searchPlaceholder') }}
      query={query}
      orderings={ORDERINGS.map((value) => ({ value, label: t(`contacts.order.${value}`) }))}
      list={list}
      what="contacts"
      tools={
        <>
          <ImportButton phonebook={phonebook.id} onDone={list.reload} />
          <ExportButtons
            requests={[
              {
                label: t('contacts.exportCsv'),
                request: { what: 'contacts', phonebook: phonebook.id, format: 'csv' },
              },
              {
                label: t('contacts.exportVcard'),
                request: { what: 'contacts', phonebook: phonebook.id, format: 'vcard' },
              },
            ]}
          />
        </>
      }
      empty={
        <>
          <p>{t('contacts.empty')}</p>
          <button type="button" className="primary" onClick={create}>
            {t('contacts.add')}
          </button>
        </>
      }
      onDeleteSelected={(ids, done) => setDeleting({ ids, done })}
      renderRow={(contact, selection) => (
        <ListRow
          key={contact.id}
          testId="contact-row"
          selection={selection}
          name={contact.display_name}
          title={<Name>{contact.display_name}</Name>}
          openLabel={t('contacts.editName', { name: contact.display_name })}
          onOpen={() => setEditing({ contact })}
          detail={
            <>
              <PhoneNumber>{contact.shown.number}</PhoneNumber>
              {contact.speed_dial ? (
                <span className="list-row-tag">
                  <Message
                    id="contacts.speedDial"
                    values={{ speedDial: <PhoneNumber>{contact.speed_dial}</PhoneNumber> }}
                  />
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
                aria-label={t('contacts.callName', { name: contact.display_name })}
                onClick={() => call(contact)}
              >
                {t('common.call')}
              </button>
              <RowMenu
                label={t('common.moreActions', { name: contact.display_name })}
                actions={[
                  ...crm.links.map((link) => ({
                    label: t('crm.open', { crm: link.label }),
                    run: () =>
                      void crm.open(
                        link.index,
                        crmParty(contact.number, contact.display_name, contact.company),
                      ),
                  })),
                  {
                    label: t('common.delete'),
                    danger: true,
                    run: () => setDeleting({ ids: [contact.id], name: contact.display_name }),
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
            deleting.name === undefined ? (
              t('contacts.deleteCountTitle', { count: deleting.ids.length })
            ) : (
              <Message id="contacts.deleteTitle" values={{ name: <Name>{deleting.name}</Name> }} />
            )
          }
          action={
            deleting.name === undefined
              ? t('contacts.deleteCount', { count: deleting.ids.length })
              : t('common.delete')
          }
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
              ? t('contacts.deleteOneExplained')
              : t('contacts.deleteManyExplained', { count: deleting.ids.length })}
          </p>
        </ConfirmDelete>
      ) : null}
    </ListScreen>
  );
}
