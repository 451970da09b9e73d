import { useEffect, useRef } from 'react';

/** A ref whose element takes the keyboard focus when it appears (focus follows view changes). */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}
