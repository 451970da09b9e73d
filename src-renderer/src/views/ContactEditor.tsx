import { useState } from 'react';
import { useTranslation } from '../i18n';
import type { ContactView } from '../../../src-shared/contract';
import { Field } from '../components/Field';
import { FormActions } from '../components/FormActions';
import { formErrors, NO_ERRORS, type FormErrors } from './form-errors';
import { Modal } from '../components/Modal';
import { useFocusFirstInvalid } from '../hooks/use-focus-first-invalid';

const FIELDS = ['display_name', 'number', 'secondary_number', 'speed_dial', 'company'];

/** A number to fill in: as core shows it, and as it is stored (saved so when left as shown). */
export interface FilledNumber {
  shown: string;
  stored: string;
}

/**
 * Create or edit a contact of `phonebook`. The platform's rules are said next to the field they
 * concern; a refusal keeps everything typed.
 */
export function ContactEditor({
  phonebook,
  contact,
  number,
  onSaved,
  onCancel,
}: {
  phonebook: number;
  contact: ContactView | undefined;
  /** A new contact's number, filled in (a caller added from the call bar or recent calls). */
  number?: FilledNumber;
  onSaved: (contact: ContactView) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  // The numbers as the window shows them everywhere (core's form, `shown`), not as stored.
  const shown = {
    number: contact?.shown.number ?? number?.shown ?? '',
    secondary_number: contact?.shown.secondary_number ?? '',
  };
  const stored = contact ?? { number: number?.stored ?? '', secondary_number: null };
  const [values, setValues] = useState({
    display_name: contact?.display_name ?? '',
    company: contact?.company ?? '',
    ...shown,
    speed_dial: contact?.speed_dial === null || !contact ? '' : String(contact.speed_dial),
  });
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [saving, setSaving] = useState(false);
  const form = useFocusFirstInvalid(errors);
  const input = (name: keyof typeof values) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });
  const save = async () => {
    setSaving(true);
    // A number left as shown is saved as it was stored: what the person did not edit is not
    // rewritten from the form it was shown in.
    const kept = (field: keyof typeof shown) =>
      values[field] === shown[field] ? (stored[field] ?? '') : values[field];
    const fields = {
      phonebook,
      ...values,
      number: kept('number'),
      secondary_number: kept('secondary_number'),
    };
    const result = contact
      ? await window.callbar.contacts.update({ id: contact.id, ...fields })
      : await window.callbar.contacts.create(fields);
    setSaving(false);
    if (result.ok) onSaved(result.value);
    else setErrors(formErrors(result.error, FIELDS));
  };
  return (
    <Modal titleId="contact-editor-title" onCancel={onCancel}>
      <form
        ref={form}
        className="editor"
        data-testid="contact-editor"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <h2 id="contact-editor-title">
          {contact ? t('contactEditor.editTitle') : t('contacts.new')}
        </h2>
        <Field label={t('common.name')} error={errors.fields.display_name}>
          <input data-autofocus autoComplete="off" {...input('display_name')} />
        </Field>
        <Field label={t('common.company')} error={errors.fields.company}>
          <input autoComplete="off" {...input('company')} />
        </Field>
        <Field
          label={t('common.number')}
          error={errors.fields.number}
          hint={t('contactEditor.numberHint')}
        >
          <input type="tel" autoComplete="off" {...input('number')} />
        </Field>
        <Field label={t('contactEditor.secondNumber')} error={errors.fields.secondary_number}>
          <input type="tel" autoComplete="off" {...input('secondary_number')} />
        </Field>
        <Field
          label={t('common.speedDial')}
          error={errors.fields.speed_dial}
          hint={t('contactEditor.speedDialHint')}
        >
          <input inputMode="numeric" autoComplete="off" {...input('speed_dial')} />
        </Field>
        <FormActions
          error={errors.form}
          details={errors.details}
          submit={contact ? t('common.save') : t('contactEditor.create')}
          busy={saving}
          onCancel={onCancel}
        />
      </form>
    </Modal>
  );
}
