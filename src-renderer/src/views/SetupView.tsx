import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { Message } from '../components/Message';
import { ConnectView, ViaRelay } from './ConnectView';
import { shortcutLabel } from './shortcut-label';
import { useFocusOnMount } from '../hooks/use-focus-on-mount';
import { PhoneNumber } from '../components/Isolated';
import { CoreAlert } from '../components/CoreText';

/**
 * The first-run setup window (`#setup`): the Connect flow and nothing else, then, once connected,
 * whose account it is and where Callbar lives from now on.
 */
export function SetupView() {
  const state = useAppStore((store) => store.account?.state);
  return state === 'connected' || state === 'offline' ? <SetupDone /> : <ConnectView />;
}

function SetupDone() {
  const { t } = useTranslation();
  const extension = useAppStore((store) => store.account?.user_extension);
  const platform = useAppStore((store) => store.info?.platform);
  const openMain = useAppStore((store) => store.openMain);
  const error = useAppStore((store) => store.setupError);
  const shortcut = useAppStore((store) => store.dialShortcut);
  const button = useFocusOnMount<HTMLButtonElement>();
  return (
    <section className="screen panel" aria-labelledby="setup-done-title" data-testid="setup-done">
      <h1 id="setup-done-title">
        {extension ? (
          <Message
            id="setup.connectedAs"
            values={{ extension: <PhoneNumber>{extension}</PhoneNumber> }}
          />
        ) : (
          t('setup.connected')
        )}
      </h1>
      <p id="setup-done-explained" className="lead">
        {t('setup.tray')}
        {shortcut ? (
          <>
            {' '}
            <Message
              id="setup.shortcut"
              values={{
                shortcut: <kbd className="inline">{shortcutLabel(shortcut, platform)}</kbd>,
              }}
            />
          </>
        ) : null}
      </p>
      <ViaRelay />
      <div className="screen-actions">
        <button
          ref={button}
          type="button"
          className="primary large"
          aria-describedby="setup-done-title setup-done-explained"
          onClick={() => void openMain()}
        >
          {t('setup.open')}
        </button>
      </div>
      <CoreAlert text={error?.message} />
    </section>
  );
}
