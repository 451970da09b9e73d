import { useEffect, useState } from 'react';

/** The global dial shortcut as saved in the settings, "" when there is none or it is unknown. */
export function useDialShortcut(): string {
  const [shortcut, setShortcut] = useState('');
  useEffect(() => {
    let current = true;
    void window.callbar.settings.get().then((result) => {
      if (current && result.ok) setShortcut(result.value.settings.dial_shortcut);
    });
    return () => {
      current = false;
    };
  }, []);
  return shortcut;
}
