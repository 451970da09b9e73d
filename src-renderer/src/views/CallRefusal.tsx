import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { ErrorDetails } from '../components/ErrorDetails';
import { Icon } from '../components/Icon';
import { CoreText } from '../components/CoreText';

/**
 * Why the last call action was refused ("Already calling …: one click is one call."), as one
 * quiet line with its own Dismiss: a notice, not an alarm (the call it concerns goes on), with
 * what only someone looking into it needs behind Details.
 */
export function CallRefusal() {
  const { t } = useTranslation();
  const error = useAppStore((state) => state.callError);
  const dismiss = useAppStore((state) => state.dismissCallError);
  if (!error) return null;
  return (
    <div className="quiet-notice" role="status" data-testid="call-error" data-code={error.code}>
      <Icon name="info" />
      <div className="quiet-notice-text">
        <span>
          <CoreText>{error.message}</CoreText>
        </span>
        <ErrorDetails details={error.details} />
      </div>
      <button
        type="button"
        className="plain icon-only"
        aria-label={t('notices.dismiss')}
        onClick={dismiss}
      >
        <Icon name="close" />
      </button>
    </div>
  );
}
