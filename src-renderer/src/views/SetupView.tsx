import { useAppStore } from '../store/app-store';
import { ConnectView, ViaRelay } from './ConnectView';
import { shortcutLabel } from './shortcut-label';
import { useDialShortcut } from '../hooks/use-dial-shortcut';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import { PhoneNumber } from '../components/Isolated';

/**
 * The first-run setup window (`#setup`): the Connect flow and nothing else, then, once connected,
 * whose account it is and where Callbar lives from now on.
 */
export function SetupView() {
  const state = useAppStore((store) => store.account?.state);
  return state === 'connected' || state === 'offline' ? <SetupDone /> : <ConnectView />;
}

function SetupDone() {
  const extension = useAppStore((store) => store.account?.user_extension);
  const platform = useAppStore((store) => store.info?.platform);
  const openMain = useAppStore((store) => store.openMain);
  const error = useAppStore((store) => store.setupError);
  const shortcut = useDialShortcut();
  const button = useFocusOnMount<HTMLButtonElement>();
  return (
    <section className="panel" aria-labelledby="setup-done-title" data-testid="setup-done">
      <h1 id="setup-done-title">
        {extension ? (
          <>
            Connected as Ext. <PhoneNumber>{extension}</PhoneNumber>
          </>
        ) : (
          'Connected'
        )}
      </h1>
      <p id="setup-done-explained">
        Callbar lives in the tray and keeps running when you close this window.
        {shortcut ? (
          <>
            {' '}
            Press <kbd className="inline">{shortcutLabel(shortcut, platform)}</kbd> in any app to
            find a contact and dial.
          </>
        ) : null}
      </p>
      <ViaRelay />
      <button
        ref={button}
        type="button"
        className="primary"
        aria-describedby="setup-done-title setup-done-explained"
        onClick={() => void openMain()}
      >
        Open Callbar
      </button>
      {error ? (
        <p role="alert" className="error">
          {error.message}
        </p>
      ) : null}
    </section>
  );
}
