import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { Message } from '../components/Message';
import { DialogActions } from '../components/DialogActions';
import { Modal } from '../components/Modal';
import { PhoneNumber } from '../components/Isolated';

/** "Disconnect this computer?" with what it does and does not do. */
export function DisconnectDialog() {
  const { t } = useTranslation();
  const open = useAppStore((state) => state.confirmingDisconnect);
  const close = useAppStore((state) => state.setConfirmingDisconnect);
  const forget = useAppStore((state) => state.forget);
  const account = useAppStore((state) => state.account);
  if (!open) return null;
  return (
    <Modal titleId="disconnect-title" onCancel={() => close(false)}>
      <h2 id="disconnect-title">{t('disconnect.title')}</h2>
      <p>
        {account?.user_extension ? (
          <Message
            id="disconnect.forgetsExtension"
            values={{ extension: <PhoneNumber>{account.user_extension}</PhoneNumber> }}
          />
        ) : (
          t('disconnect.forgets')
        )}
      </p>
      <p className="hint">{t('disconnect.explained')}</p>
      <DialogActions
        cancel={
          <button type="button" data-autofocus onClick={() => close(false)}>
            {t('disconnect.keep')}
          </button>
        }
        main={
          <button
            type="button"
            className="danger"
            onClick={() => {
              close(false);
              void forget();
            }}
          >
            {t('disconnect.disconnect')}
          </button>
        }
      />
    </Modal>
  );
}
