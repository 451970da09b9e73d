import { useEffect, useState } from 'react';

/**
 * How long a status must stay the same before it is said: a pause in the typing. Each key brings
 * a new answer; saying each ("No contact matches “z”", “zq”, “zqx”…) queued a sentence per key
 * behind the key's own echo, every one stale before it was read.
 */
export const SETTLED_MS = 1000;

/**
 * A polite status, visually hidden, that says `text` once it has stayed the same for SETTLED_MS:
 * what a search found, said once the typing pauses, not once per key. An empty text quiets it at
 * once (an older count does not stay), so the next text is said even if it is the same again.
 * The visible sentence it stands for is then no live region of its own.
 */
export function SettledStatus({ text, testId }: { text: string; testId?: string }) {
  const [said, setSaid] = useState('');
  const [before, setBefore] = useState(text);
  if (text !== before) {
    setBefore(text);
    if (text === '') setSaid('');
  }
  useEffect(() => {
    if (text === '') return;
    const timer = setTimeout(() => setSaid(text), SETTLED_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <div className="visually-hidden" role="status" aria-atomic="true" data-testid={testId}>
      {said}
    </div>
  );
}
