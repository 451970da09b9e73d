import { lazy, Suspense, useState } from 'react';
import { useTranslation, withScreenTexts } from '../i18n';
import type { CallParty } from '../../../src-shared/contract';

// The dialog loads when first opened (its own chunk), with its texts.
export const AddToContactsDialog = lazy(() =>
  withScreenTexts(import('./AddToContactsDialog')).then((m) => ({
    default: m.AddToContactsDialog,
  })),
);
/**
 * "Add to contacts" for a number the directory does not know (a caller, a recent call): choose
 * the phonebook (skipped when there is one), then the new-contact form with the number filled in.
 * Once saved, the call shows the contact's name.
 */
export function AddToContacts({ party }: { party: CallParty }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="plain" onClick={() => setOpen(true)}>
        {t('addToContacts.title')}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <AddToContactsDialog party={party} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
