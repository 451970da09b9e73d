import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation, withScreenTexts } from '../i18n';
import type { CallParty, PhonebookView } from '../../../src-shared/contract';
import { DialogActions } from '../components/DialogActions';
import { Modal } from '../components/Modal';
import { Name } from '../components/Isolated';
import { CoreText } from '../components/CoreText';

// The contact form loads when first opened (its own chunk), with its texts.
const ContactEditor = lazy(() =>
  withScreenTexts(import('./ContactEditor')).then((m) => ({ default: m.ContactEditor })),
);

/**
 * Add to contacts, opened: choose the phonebook (skipped when there is one), then the
 * new-contact form with the party's number filled in as core shows it (saved as the call keeps
 * it when left so; its own chunk: AddToContacts.tsx loads it).
 */
export function AddToContactsDialog({ party, onClose }: { party: CallParty; onClose: () => void }) {
  const { t } = useTranslation();
  const [books, setBooks] = useState<PhonebookView[] | undefined>();
  const [chosen, setChosen] = useState<number | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    void window.callbar.phonebooks.list({}).then((result) => {
      if (!result.ok) return setError(result.error.message);
      setBooks(result.value.results);
      if (result.value.results.length === 1) setChosen(result.value.results[0]!.id);
    });
  }, []);
  if (chosen !== undefined) {
    return (
      <Suspense fallback={null}>
        <ContactEditor
          phonebook={chosen}
          contact={undefined}
          number={{ shown: party.number_shown ?? party.number, stored: party.number }}
          onSaved={onClose}
          onCancel={onClose}
        />
      </Suspense>
    );
  }
  return (
    <Modal titleId="add-contact-title" onCancel={onClose}>
      <form
        className="editor"
        data-testid="add-to-contacts"
        onSubmit={(event) => {
          event.preventDefault();
          const picked = new FormData(event.currentTarget).get('phonebook');
          if (picked) setChosen(Number(picked));
        }}
      >
        <h2 id="add-contact-title">{t('addToContacts.title')}</h2>
        {error ? (
          <p role="alert" className="error">
            <CoreText>{error}</CoreText>
          </p>
        ) : books === undefined ? (
          <p aria-busy="true">{t('addToContacts.loading')}</p>
        ) : books.length === 0 ? (
          <p>{t('addToContacts.noPhonebook')}</p>
        ) : (
          <fieldset className="settings-plain">
            <legend>{t('addToContacts.phonebook')}</legend>
            {books.map((book, index) => (
              <label key={book.id} className="check">
                <input
                  type="radio"
                  name="phonebook"
                  value={book.id}
                  defaultChecked={index === 0}
                  {...(index === 0 ? { 'data-autofocus': true } : {})}
                />
                <Name>{book.description}</Name>
              </label>
            ))}
          </fieldset>
        )}
        <DialogActions
          cancel={
            <button type="button" onClick={onClose}>
              {t('common.cancel')}
            </button>
          }
          main={
            books && books.length > 0 ? (
              <button type="submit" className="primary">
                {t('addToContacts.continue')}
              </button>
            ) : null
          }
        />
      </form>
    </Modal>
  );
}
