import { useTranslation } from '../i18n';
import { DialogActions } from './DialogActions';
import { ErrorDetails } from './ErrorDetails';
import { CoreText } from './CoreText';

/** A form's foot: what went wrong that no field shows, Cancel, and the submit button. */
export function FormActions({
  error,
  details,
  submit,
  busy = false,
  onCancel,
}: {
  error: string | undefined;
  /** The request and status behind `error` (the "Details" disclosure). */
  details?: string | undefined;
  submit: string;
  busy?: boolean;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {error ? (
        <div role="alert" className="error">
          <CoreText>{error}</CoreText>
          <ErrorDetails details={details} />
        </div>
      ) : null}
      <DialogActions
        cancel={
          <button type="button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        }
        main={
          <button type="submit" className="primary" disabled={busy}>
            {submit}
          </button>
        }
      />
    </>
  );
}
