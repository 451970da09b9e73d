import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n';
import type { Call } from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';
import { CoreText } from '../components/CoreText';

/** The longest note (the contract's CALL_NOTE_CHARS; the renderer imports types only). */
const CALL_NOTE_CHARS = 500;

/** The note as core keeps it (call-notes.ts): line breaks as \n, trimmed. */
export function keptNote(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

/**
 * The note on one call, edited in place: Enter saves (Shift+Enter starts a new line), Esc or
 * Cancel leaves it as it was; an empty note removes it. The count is of what will be kept.
 */
export function CallNoteEditor({ call, onDone }: { call: Call; onDone: () => void }) {
  const { t } = useTranslation();
  const applyCallsEvent = useAppStore((state) => state.applyCallsEvent);
  const [text, setText] = useState(call.note ?? '');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // Saved, cancelled or left with Esc, the editor goes, and the focus with it: it comes back to
  // what opened it, in the same row or card (the card's Add note, the row's ⋯, else its first
  // button), unless it is somewhere else already. It fell to the page's body, and Tab started
  // again from the window's top.
  useEffect(() => {
    const place = form.current?.closest('.row, .call-card');
    return () => {
      const focused = document.activeElement;
      if (focused && focused !== document.body) return;
      (
        place?.querySelector<HTMLElement>('[data-note-opener], .row-menu-button') ??
        place?.querySelector<HTMLElement>('button')
      )?.focus();
    };
  }, []);
  const save = async () => {
    if (saving) return;
    setSaving(true);
    const result = await window.callbar.calls.setNote({ call_id: call.id, note: keptNote(text) });
    setSaving(false);
    if (!result.ok) return setError(result.error.message);
    applyCallsEvent(result.value);
    onDone();
  };
  return (
    <form
      ref={form}
      className="call-note-editor"
      data-testid="call-note-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <textarea
        aria-label={t('recent.note.label')}
        aria-describedby={`note-${call.id}-count`}
        rows={2}
        maxLength={CALL_NOTE_CHARS}
        autoFocus
        value={text}
        aria-invalid={error ? true : undefined}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void save();
          } else if (event.key === 'Escape') {
            // Leaves the note as it was; the screen stays (nothing else hears this Esc).
            event.preventDefault();
            event.stopPropagation();
            onDone();
          }
        }}
      />
      <span className="hint small" id={`note-${call.id}-count`}>
        {t('recent.note.length', { length: keptNote(text).length, max: CALL_NOTE_CHARS })}
      </span>
      {error ? (
        <span role="alert" className="error">
          <CoreText>{error}</CoreText>
        </span>
      ) : null}
      <span className="inline-actions">
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="primary" disabled={saving}>
          {t('recent.note.save')}
        </button>
      </span>
    </form>
  );
}
