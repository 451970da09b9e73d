import { useState } from 'react';
import { useTranslation } from '../i18n';
import type { Call } from '../../../src-shared/contract';
import { useAppStore } from '../store/app-store';

/** The longest note (the contract's CALL_NOTE_CHARS; the renderer imports types only). */
const CALL_NOTE_CHARS = 500;

/** The note on one recent call, edited in place: Save (an empty note removes it) or Cancel. */
export function CallNoteEditor({ call, onDone }: { call: Call; onDone: () => void }) {
  const { t } = useTranslation();
  const applyCallsEvent = useAppStore((state) => state.applyCallsEvent);
  const [text, setText] = useState(call.note ?? '');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    const result = await window.callbar.calls.setNote({ call_id: call.id, note: text });
    setSaving(false);
    if (!result.ok) return setError(result.error.message);
    applyCallsEvent(result.value);
    onDone();
  };
  return (
    <form
      className="call-note-editor"
      data-testid="call-note-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <textarea
        aria-label={t('recent.note.label')}
        rows={2}
        maxLength={CALL_NOTE_CHARS}
        autoFocus
        value={text}
        aria-invalid={error ? true : undefined}
        onChange={(event) => setText(event.target.value)}
      />
      <span className="setting-hint">
        {t('recent.note.length', { length: text.length, max: CALL_NOTE_CHARS })}
      </span>
      {error ? (
        <span role="alert" className="error">
          {error}
        </span>
      ) : null}
      <span className="form-actions">
        <button type="submit" className="primary" disabled={saving}>
          {t('recent.note.save')}
        </button>
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </span>
    </form>
  );
}
