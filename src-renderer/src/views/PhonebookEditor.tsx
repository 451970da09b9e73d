import { useState } from 'react';
import { useTranslation } from '../i18n';
import type { PhonebookView } from '../../../src-shared/contract';
import { Field } from '../components/Field';
import { FormActions } from '../components/FormActions';
import { formErrors, NO_ERRORS, type FormErrors } from './form-errors';
import { Modal } from '../components/Modal';
import { useFocusFirstInvalid } from '../hooks/use-focus-first-invalid';

const FIELDS = ['description', 'priority', 'is_shared'];

/** Create or edit a phonebook; a refusal keeps everything typed and shows next to its field. */
export function PhonebookEditor({
  book,
  onSaved,
  onCancel,
}: {
  book: PhonebookView | undefined;
  onSaved: (book: PhonebookView) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [description, setDescription] = useState(book?.description ?? '');
  const [priority, setPriority] = useState(String(book?.priority ?? 0));
  const [shared, setShared] = useState(book?.is_shared ?? false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [saving, setSaving] = useState(false);
  const form = useFocusFirstInvalid(errors);
  const save = async () => {
    setSaving(true);
    const fields = { description, priority, is_shared: shared };
    const result = book
      ? await window.callbar.phonebooks.update({ id: book.id, ...fields })
      : await window.callbar.phonebooks.create(fields);
    setSaving(false);
    if (result.ok) onSaved(result.value);
    else setErrors(formErrors(result.error, FIELDS));
  };
  return (
    <Modal titleId="phonebook-editor-title" onCancel={onCancel}>
      <form
        ref={form}
        className="editor"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <h2 id="phonebook-editor-title">
          {book ? t('phonebookEditor.editTitle') : t('phonebooks.new')}
        </h2>
        <Field label={t('common.name')} error={errors.fields.description}>
          <input
            data-autofocus
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </Field>
        <Field
          label={t('phonebookEditor.priority')}
          error={errors.fields.priority}
          hint={t('phonebookEditor.priorityHint')}
        >
          <input
            inputMode="numeric"
            value={priority}
            onChange={(event) => setPriority(event.target.value)}
          />
        </Field>
        <label className="check">
          <input
            type="checkbox"
            checked={shared}
            onChange={(event) => setShared(event.target.checked)}
          />
          {t('phonebookEditor.shared')}
        </label>
        {errors.fields.is_shared ? <p className="field-error">{errors.fields.is_shared}</p> : null}
        <FormActions
          error={errors.form}
          details={errors.details}
          submit={book ? t('common.save') : t('phonebookEditor.create')}
          busy={saving}
          onCancel={onCancel}
        />
      </form>
    </Modal>
  );
}
