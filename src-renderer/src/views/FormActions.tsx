import type { ReactNode } from 'react';

/** A form's foot: what went wrong that no field shows, Cancel, and the submit button. */
export function FormActions({
  error,
  submit,
  busy = false,
  onCancel,
  children,
}: {
  error: string | undefined;
  submit: string;
  busy?: boolean;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  return (
    <>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <div className="dialog-actions">
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
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
