import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../i18n';
import { useAppStore } from '../store/app-store';
import { recordKeys } from '../views/shortcut-keys';
import { shortcutLabel } from '../views/shortcut-label';

/**
 * The global shortcut, recorded rather than typed: press the button, then the keys. Esc cancels,
 * Backspace clears (no shortcut). It stores the Electron accelerator and shows it as the keyboard
 * names it (Ctrl+Shift+D, Cmd+Shift+D on macOS); a combination that cannot be a global shortcut
 * is said in `onProblem`, and the saved one kept. Ids and aria-* come from its SettingField.
 */
export function ShortcutRecorder({
  name,
  value,
  onChange,
  onProblem,
  ...field
}: {
  /** The setting's name, said with the shortcut ("Global shortcut: Ctrl+Shift+D"). */
  name: string;
  value: string;
  onChange: (accelerator: string) => void;
  onProblem: (problem: string | undefined) => void;
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const platform = useAppStore((state) => state.info?.platform);
  const [recording, setRecording] = useState<{ held: string } | undefined>();
  const stop = () => setRecording(undefined);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!recording) return;
    event.preventDefault();
    event.stopPropagation();
    if (event.key === 'Escape') return stop();
    if (event.key === 'Backspace') {
      onChange('');
      onProblem(undefined);
      return stop();
    }
    const recorded = recordKeys(event.nativeEvent, platform);
    if (recorded.kind === 'held') return setRecording({ held: recorded.held });
    if (recorded.kind === 'refused') {
      onProblem(recorded.problem);
      return stop();
    }
    onChange(recorded.accelerator);
    onProblem(undefined);
    stop();
  };
  const shown = recording
    ? recording.held || t('shortcut.pressKeys')
    : value
      ? shortcutLabel(value, platform)
      : t('shortcut.none');
  return (
    <span className="shortcut-recorder">
      <button
        {...field}
        type="button"
        className={recording ? 'shortcut-keys recording' : 'shortcut-keys'}
        aria-label={t('shortcut.named', { name, shortcut: shown })}
        aria-pressed={recording ? true : undefined}
        data-accelerator={value}
        onClick={() => (recording ? stop() : setRecording({ held: '' }))}
        onKeyDown={onKeyDown}
        onBlur={stop}
      >
        <kbd className="inline">{shown}</kbd>
      </button>
      <span className="setting-hint" aria-live="polite">
        {recording ? t('shortcut.recordingHint') : t('shortcut.pressToChange')}
      </span>
    </span>
  );
}
