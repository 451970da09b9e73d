import { useState } from 'react';
import { useTranslation } from '../i18n';
import { Message } from '../components/Message';
import type { ContactOrdering, ContactView, PhonebookView } from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ContactEditor } from './ContactEditor';
import { crmParty, useCrmLinks } from '../hooks/use-crm-links';
import { ExportProgress } from '../components/ExportProgress';
import { useExportDownload } from '../hooks/use-export-download';
import { ImportDialog } from './ImportDialog';
import { Name, PhoneNumber } from '../components/Isolated';
import { ListRow, ListScreen } from '../components/ListScreen';
import { RowMenu } from '../components/RowMenu';
import { RowCallButton } from '../components/RowCallButton';
import { Avatar } from '../components/Avatar';
import { Icon } from '../components/Icon';
import { useListQuery } from '../hooks/use-list-query';
import { usePagedList } from '../hooks/use-paged-list';
import { CoreAlert } from '../components/CoreText';

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
 * The contacts of one phonebook as one list: initials, name and company, the number; click or
 * Enter edits, Call and "⋯" (the CRM links, Delete) on hover or focus; New contact; Import,
 * Export and Select (to delete several) in the screen's More menu.
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
  const [importing, setImporting] = useState(false);
  const exporting = useExportDownload();
  const crm = useCrmLinks();
  /** Why an export or a CRM link failed (core's sentence). */
  const problem = exporting.error ?? crm.error;
  const list = usePagedList(
    (page) =>
      window.callbar.contacts.list({
        phonebook: phonebook.id,
        ...query.searchParam,
        ordering: query.query.ordering,
        page,
      }),
    query.key,
  );
  const create = () => setEditing({ contact: undefined });
  // The same dial as the search's (its confirmations and refusals), back on the search view.
  const call = (contact: ContactView) => {
    show('main');
    void dial(contact.number, 'ui', contact.display_name);
  };
  return (
    <ListScreen
      titleId="contacts-title"
      title={<Name>{phonebook.description}</Name>}
      back={{ to: t('phonebooks.title'), onClick: onBack }}
      primary={{ label: t('contacts.new'), onClick: create }}
      search={{ label: t('contacts.search'), placeholder: t('contacts.searchPlaceholder') }}
      query={query}
      orderings={ORDERINGS.map((value) => ({ value, label: t(`contacts.order.${value}`) }))}
      list={list}
      what="contacts"
      more={[
        { label: t('import.button'), run: () => setImporting(true) },
        {
          label: t('contacts.exportCsv'),
          run: () =>
            void exporting.save({ what: 'contacts', phonebook: phonebook.id, format: 'csv' }),
        },
        {
          label: t('contacts.exportVcard'),
          run: () =>
            void exporting.save({ what: 'contacts', phonebook: phonebook.id, format: 'vcard' }),
        },
      ]}
      empty={
        <>
          <p>{t('contacts.empty')}</p>
          <button type="button" onClick={() => setImporting(true)}>
            <Icon name="upload" />
            {t('contacts.importFirst')}
          </button>
        </>
      }
      onDeleteSelected={(ids, done) => setDeleting({ ids, done })}
      renderRow={(contact, selection) => (
        <ListRow
          testId="contact-row"
          selection={selection}
          name={contact.display_name}
          leading={<Avatar name={contact.display_name} />}
          title={<Name className="row-name">{contact.display_name}</Name>}
          titleAside={
            contact.company ? <Name className="row-company">{contact.company}</Name> : null
          }
          openLabel={t('contacts.editName', { name: contact.display_name })}
          onOpen={() => setEditing({ contact })}
          detail={
            <>
              <PhoneNumber className="row-number">{contact.shown.number}</PhoneNumber>
              {contact.speed_dial !== null ? (
                <span className="row-tag">
                  <Message
                    id="contacts.speedDial"
                    values={{ speedDial: <PhoneNumber>{contact.speed_dial}</PhoneNumber> }}
                  />
                </span>
              ) : null}
            </>
          }
          actions={
            <>
              <RowCallButton name={contact.display_name} onCall={() => call(contact)} />
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
                    apart: crm.links.length > 0,
                    run: () => setDeleting({ ids: [contact.id], name: contact.display_name }),
                  },
                ]}
              />
            </>
          }
        />
      )}
    >
      <ExportProgress busy={exporting.busy} />
      <CoreAlert text={problem} testId="export-error" />
      {importing ? (
        <ImportDialog
          phonebook={phonebook.id}
          onClose={() => {
            setImporting(false);
            list.reload();
          }}
        />
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
