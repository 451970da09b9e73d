import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { CoreText } from '../components/CoreText';

/** Things core wanted the user to know that answer no request (a failed connect, a lost receiver). */
export function Notices() {
  const { t } = useTranslation();
  const notices = useAppStore((state) => state.notices);
  const dismiss = useAppStore((state) => state.dismissNotice);
  return (
    <ul className="notices" aria-live="polite">
      {notices.map((notice, index) => (
        <li key={index} className={`notice notice-${notice.level}`}>
          <span>
            <CoreText>{notice.message}</CoreText>
          </span>
          <button type="button" className="plain" onClick={() => dismiss(index)}>
            {t('notices.dismiss')}
          </button>
        </li>
      ))}
    </ul>
  );
}
