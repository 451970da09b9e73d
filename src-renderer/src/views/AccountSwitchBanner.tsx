import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';

/**
 * Over every view while the session is for a different account than the one this computer used
 * before (someone who learned a connect link can complete it as themselves): core's sentence, and
 * the acknowledgement that makes every Callbar of this profile stop saying it.
 */
export function AccountSwitchBanner() {
  const { t } = useTranslation();
  const change = useAppStore((state) => state.account?.account_switch);
  const acknowledge = useAppStore((state) => state.acknowledgeSwitch);
  const busy = useAppStore((state) => state.accountBusy);
  if (!change) return null;
  return (
    <div className="banner banner-warning" role="alert" data-testid="account-switch">
      <p>
        <strong>{t('accountSwitch.title')}</strong> {change.message}
      </p>
      <button
        type="button"
        onClick={() => {
          if (!busy) void acknowledge();
        }}
      >
        {t('accountSwitch.itWasMe')}
      </button>
    </div>
  );
}
