import { useEffect, useId, useRef, useState } from 'react';
import { useAppStore } from '../store/app-store';
import { hasSession } from '../store/selectors';
import { ThemeSelect } from './ThemeSelect';

/** The header's menu (a disclosure of ordinary buttons): About, theme, Disconnect…. */
export function Menu() {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const show = useAppStore((state) => state.show);
  const canDisconnect = useAppStore(hasSession);
  const confirmDisconnect = useAppStore((state) => state.setConfirmingDisconnect);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('button, select')?.focus();
    const onKey = (event: KeyboardEvent) => {
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

  const choose = (action: () => void) => {
    setOpen(false);
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
        Menu
      </button>
      {open ? (
        <div id={id} ref={panel} className="menu-panel">
          {canDisconnect ? (
            <button type="button" onClick={() => choose(() => show('phonebooks'))}>
              Phonebooks and contacts
            </button>
          ) : null}
          <button type="button" onClick={() => choose(() => show('settings'))}>
            Settings
          </button>
          <button type="button" onClick={() => choose(() => show('about'))}>
            About Callbar
          </button>
          <label className="menu-theme">
            Theme
            <ThemeSelect />
          </label>
          {canDisconnect ? (
            <button type="button" onClick={() => choose(() => confirmDisconnect(true))}>
              Disconnect this computer…
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
