import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { hasSession } from '../store/selectors';
import type { ThemeChoice } from '../store/ui-slice';
import { rovingTarget } from '../components/roving-focus';
import { Message } from '../components/Message';
import { Name } from '../components/Isolated';

/** The theme buttons (their words: the catalog's `menu.theme.<choice>`). */
const THEMES: ThemeChoice[] = ['system', 'light', 'dark'];

/**
 * The header's menu (a disclosure of ordinary buttons): Phonebooks, Settings, About, the theme
 * (three toggle buttons, no native select) and, set apart, Disconnect. The keys: ↑/↓ move
 * between the items (wrapping), Home/End go to the first/last, Tab leaves the menu (one tab
 * stop: the focus roves), Esc closes it and gives the focus back to the Menu button.
 */
export function Menu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const show = useAppStore((state) => state.show);
  const canDisconnect = useAppStore(hasSession);
  const confirmDisconnect = useAppStore((state) => state.setConfirmingDisconnect);
  const theme = useAppStore((state) => state.theme);
  const setTheme = useAppStore((state) => state.setTheme);
  const account = useAppStore((state) => state.account);

  useEffect(() => {
    if (!open) return;
    focusItem(panel.current, 0);
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const onPanelKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = menuItems(panel.current);
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const to = rovingTarget(event.key, at, items.length);
    if (to === undefined) return;
    event.preventDefault();
    focusItem(panel.current, to);
  };
  // The focus is back on the Menu button first: a dialog the item opens returns it there.
  const choose = (action: () => void) => {
    setOpen(false);
    button.current?.focus();
    action();
  };
  return (
    <div className="menu">
      <button
        ref={button}
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {t('menu.menu')}
      </button>
      {open ? (
        <div
          id={id}
          ref={panel}
          className="menu-panel"
          data-testid="menu-panel"
          onKeyDown={onPanelKey}
        >
          {account?.tenant_id || account?.relay ? (
            // Whose account and through which relay: where one looks for it, not in the header.
            <p className="menu-account" data-testid="menu-account">
              {account.tenant_id ? (
                <span>
                  {t('menu.organisation')}{' '}
                  <span className="menu-account-id" data-testid="account-tenant">
                    <Name>{account.tenant_id}</Name>
                  </span>
                </span>
              ) : null}
              {account.relay ? (
                <span data-testid="account-relay">
                  <Message id="account.viaRelay" values={{ relay: <Name>{account.relay}</Name> }} />
                </span>
              ) : null}
            </p>
          ) : null}
          {canDisconnect ? (
            <button type="button" onClick={() => choose(() => show('phonebooks'))}>
              {t('menu.phonebooks')}
            </button>
          ) : null}
          <button type="button" onClick={() => choose(() => show('settings'))}>
            {t('menu.settings')}
          </button>
          <button type="button" onClick={() => choose(() => show('about'))}>
            {t('about.title')}
          </button>
          <div className="menu-theme" role="group" aria-labelledby={`${id}-theme`}>
            <span id={`${id}-theme`}>{t('menu.theme.title')}</span>
            <span className="menu-theme-choices">
              {THEMES.map((each) => (
                <button
                  key={each}
                  type="button"
                  aria-pressed={theme === each}
                  onClick={() => setTheme(each)}
                >
                  {t(`menu.theme.${each}`)}
                </button>
              ))}
            </span>
          </div>
          {canDisconnect ? (
            <>
              <hr className="menu-separator" />
              <button type="button" onClick={() => choose(() => confirmDisconnect(true))}>
                {t('menu.disconnect')}
              </button>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function menuItems(panel: HTMLElement | null): HTMLButtonElement[] {
  return [...(panel?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
}

/** Moves the focus to item `index`, the only one reachable with Tab (roving tabindex). */
function focusItem(panel: HTMLElement | null, index: number): void {
  const items = menuItems(panel);
  items.forEach((item, at) => (item.tabIndex = at === index ? 0 : -1));
  items[index]?.focus();
}
