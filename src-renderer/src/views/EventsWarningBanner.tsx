import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';

/**
 * Over every view while call events are not authenticated: accepted from anyone (the setting
 * accept_unauthenticated_events is on), or refused because the keychain cannot give the webhook
 * secret. Core's sentence says which and what to do.
 */
export function EventsWarningBanner() {
  const { t } = useTranslation();
  const warning = useAppStore((state) => state.account?.events_warning);
  if (!warning) return null;
  return (
    <div className="banner banner-warning" role="alert" data-testid="events-warning">
      <p>
        <strong>{t('eventsWarning.title')}</strong> {warning}
      </p>
    </div>
  );
}
