import { useState } from 'react';
import { useAppStore } from '../store/app-store';
import { shortcutLabel } from './shortcut-label';
import { useDialShortcut } from '../hooks/use-dial-shortcut';

const DISMISSED_KEY = 'callbar.first-run-hint';

/**
 * After connecting, the three keys that matter, on the search view until the person presses
 * Got it (remembered in this window's storage, like the theme).
 */
export function FirstRunHint() {
  const platform = useAppStore((state) => state.info?.platform);
  const shortcut = useDialShortcut();
  const [dismissed, setDismissed] = useState(
    () => globalThis.localStorage?.getItem(DISMISSED_KEY) === 'dismissed',
  );
  if (dismissed) return null;
  const dismiss = () => {
    globalThis.localStorage?.setItem(DISMISSED_KEY, 'dismissed');
    setDismissed(true);
  };
  return (
    <section className="first-run" aria-labelledby="first-run-title" data-testid="first-run-hint">
      <h2 id="first-run-title">Three keys to know</h2>
      <dl className="first-run-keys">
        <dt>
          <kbd className="inline">Type</kbd>
        </dt>
        <dd>a name, company, number or speed dial to search</dd>
        <dt>
          <kbd className="inline">Enter</kbd>
        </dt>
        <dd>calls the highlighted contact or number</dd>
        {shortcut ? (
          <>
            <dt>
              <kbd className="inline">{shortcutLabel(shortcut, platform)}</kbd>
            </dt>
            <dd>opens Callbar from any app</dd>
          </>
        ) : (
          <>
            <dt>
              <kbd className="inline">Esc</kbd>
            </dt>
            <dd>clears the search, or hangs up a call</dd>
          </>
        )}
      </dl>
      <button type="button" onClick={dismiss}>
        Got it
      </button>
    </section>
  );
}
