import type { ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { ErrorDetails } from './ErrorDetails';

/** A form's foot: what went wrong that no field shows, Cancel, and the submit button. */
export function FormActions({
  error,
  details,
  submit,
  busy = false,
  onCancel,
  children,
}: {
  error: string | undefined;
  /** The request and status behind `error` (the "Details" disclosure). */
  details?: string | undefined;
  submit: string;
  busy?: boolean;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      {error ? (
        <div role="alert" className="error">
          {error}
          <ErrorDetails details={details} />
        </div>
      ) : null}
      <div className="dialog-actions">
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        ) : null}
        <button type="submit" className="primary" disabled={busy}>
          {submit}
        </button>
        {children}
      </div>
    </>
  );
}
