import { useAppStore } from '../store/app-store';
import { Modal } from '../components/Modal';
import { PhoneNumber } from '../components/Isolated';

/** "Disconnect this computer?" with what it does and does not do. */
export function DisconnectDialog() {
  const open = useAppStore((state) => state.confirmingDisconnect);
  const close = useAppStore((state) => state.setConfirmingDisconnect);
  const forget = useAppStore((state) => state.forget);
  const account = useAppStore((state) => state.account);
  if (!open) return null;
  return (
    <Modal titleId="disconnect-title" onCancel={() => close(false)}>
      <h2 id="disconnect-title">Disconnect this computer?</h2>
      <p>
        Callbar forgets its connection
        {account?.user_extension ? (
          <>
            {' to extension '}
            <PhoneNumber>{account.user_extension}</PhoneNumber>
          </>
        ) : null}{' '}
        on this computer and stops placing calls from it.
      </p>
      <p className="hint">
        The platform integration stays active until you press Unsubscribe in the portal, and the
        portal reaches only a running Callbar that knows this connection. To end the integration,
        press Unsubscribe in the portal now, while Callbar is open, instead of disconnecting; after
        disconnecting, use Connect… and press Unsubscribe in the portal it opens. You can connect
        this computer again at any time.
      </p>
      <div className="dialog-actions">
        <button type="button" data-autofocus onClick={() => close(false)}>
          Keep connected
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => {
            close(false);
            void forget();
          }}
        >
          Disconnect
        </button>
      </div>
    </Modal>
  );
}
