import { useState } from 'react';
import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { shortcutLabel } from './shortcut-label';
import { dismissFirstRunHint, firstRunHintDismissed } from './first-run-dismissed';

/**
 * After connecting, the three keys that matter, on the search view until the person presses
 * Got it (first-run-dismissed.ts). Its own chunk, with its texts: SearchView loads it only until
 * then.
 */
export function FirstRunHint() {
  const { t } = useTranslation();
  const platform = useAppStore((state) => state.info?.platform);
  const shortcut = useAppStore((state) => state.dialShortcut);
  const [dismissed, setDismissed] = useState(firstRunHintDismissed);
  if (dismissed) return null;
  const dismiss = () => {
    dismissFirstRunHint();
    setDismissed(true);
  };
  return (
    <section className="first-run" aria-labelledby="first-run-title" data-testid="first-run-hint">
      <h2 id="first-run-title">{t('firstRun.title')}</h2>
      <dl className="first-run-keys">
        <dt>
          <kbd className="inline">{t('firstRun.type')}</kbd>
        </dt>
        <dd>{t('firstRun.typeWhat')}</dd>
        <dt>
          <kbd className="inline">{t('keys.enter')}</kbd>
        </dt>
        <dd>{t('firstRun.enterWhat')}</dd>
        {shortcut ? (
          <>
            <dt>
              <kbd className="inline">{shortcutLabel(shortcut, platform)}</kbd>
            </dt>
            <dd>{t('firstRun.shortcutWhat')}</dd>
          </>
        ) : (
          <>
            <dt>
              <kbd className="inline">{t('keys.esc')}</kbd>
            </dt>
            <dd>{t('firstRun.escWhat')}</dd>
          </>
        )}
      </dl>
      <button type="button" onClick={dismiss}>
        {t('firstRun.gotIt')}
      </button>
    </section>
  );
}
