import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { showsMainView } from '../store/selectors';

/** What Back from Settings or About goes to: the search, or, not connected, Connect. */
export function useHomeName(): string {
  const { t } = useTranslation();
  const main = useAppStore(showsMainView);
  return main ? t('search.short') : t('connect.home');
}
