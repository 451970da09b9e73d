import { useEffect, useEffectEvent } from 'react';

/**
 * Esc goes back from a screen (to the one it was opened from), wherever the focus is on it,
 * unless something nearer took the key: an open dialog (it cancels itself), a menu (it closes),
 * a search box that clears first, the shortcut recorder (it stops recording). Those prevent the
 * key's default; this listens after them, on the window.
 */
export function useEscapeBack(back: () => void, active = true): void {
  const goBack = useEffectEvent(back);
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      goBack();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active]);
}
