import { useState, type ReactNode } from 'react';
import { useTranslation } from '../i18n';
import type { ErrorInfo, Result } from '../../../src-shared/contract';
import { DialogActions } from './DialogActions';
import { Modal } from './Modal';
import { CoreAlert } from './CoreText';

/** "Delete …?" with what it means; a refusal is shown in the dialog, which stays open. */
export function ConfirmDelete({
  title,
  children,
  action,
  remove,
  onDeleted,
  onCancel,
}: {
  title: ReactNode;
  children: ReactNode;
  /** The delete button's words ("Delete 3 contacts"). */
  action: string;
  remove: () => Promise<Result<unknown>>;
  onDeleted: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<ErrorInfo | undefined>();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    const result = await remove();
    setBusy(false);
    if (result.ok) onDeleted();
    else setError(result.error);
  };
  return (
    <Modal titleId="confirm-delete-title" onCancel={onCancel}>
      <h2 id="confirm-delete-title">{title}</h2>
      {children}
      <CoreAlert text={error?.message} testId="delete-error" />
      <DialogActions
        cancel={
          <button type="button" data-autofocus onClick={onCancel}>
            {error ? t('common.close') : t('common.keep')}
          </button>
        }
        main={
          error ? null : (
            <button type="button" className="danger" disabled={busy} onClick={() => void confirm()}>
              {action}
            </button>
          )
        }
      />
    </Modal>
  );
}
