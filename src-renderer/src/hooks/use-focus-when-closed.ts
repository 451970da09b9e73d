import { useEffect, useEffectEvent, useRef } from 'react';

/**
 * When something shown in place closes (`open` goes from true to false: an inline editor saved
 * or left with Esc) and took the keyboard focus with it, the focus goes to `target()`: the
 * control that opened it, or what stands in its place now. Without this it fell to the page's
 * body, and a keyboard user started again from the window's first control. A focus that is
 * somewhere else already (the person clicked away) stays where it is.
 */
export function useFocusWhenClosed(
  open: boolean,
  target: () => HTMLElement | null | undefined,
): void {
  const wasOpen = useRef(open);
  const focusTarget = useEffectEvent(() => target()?.focus());
  useEffect(() => {
    const closed = wasOpen.current && !open;
    wasOpen.current = open;
    if (!closed) return;
    const focused = document.activeElement;
    if (focused === null || focused === document.body) focusTarget();
  }, [open]);
}
