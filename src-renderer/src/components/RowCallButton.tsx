import { useTranslation } from '../i18n';
import { Icon } from './Icon';

/**
 * A row's Call (Contacts, Favourites, Recent calls), named "Call {name}". In a narrow window it
 * shows its icon alone (`.row-call-word`): "Anrufen" lay over a contact's speed dial at 420 px.
 */
export function RowCallButton({ name, onCall }: { name: string; onCall: () => void }) {
  const { t } = useTranslation();
  const label = t('contacts.callName', { name });
  return (
    <button type="button" aria-label={label} title={label} onClick={onCall}>
      <Icon name="phone" />
      <span className="row-call-word">{t('common.call')}</span>
    </button>
  );
}
