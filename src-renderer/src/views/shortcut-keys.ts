/**
 * A pressed key combination as an Electron accelerator, for the Settings view's shortcut recorder:
 * the key by its position on the keyboard (`KeyboardEvent.code`, so the layout does not matter),
 * Ctrl (Cmd on macOS) as `CommandOrControl` so the setting works on every system. A global
 * shortcut is taken from every other app, so a plain key (or Shift and a key) is refused: only
 * F1–F24 stand alone.
 */
import { i18n } from '../i18n';
import { shortcutLabel } from './shortcut-label';

/** The keys of a `keydown` the recorder reads. */
export type PressedKeys = Pick<
  KeyboardEvent,
  'code' | 'key' | 'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey'
>;

/** What a key press makes of the shortcut being recorded. */
export type Recorded =
  /** Only modifiers so far: keep listening (`held`: them, as a person reads them). */
  | { kind: 'held'; held: string }
  | { kind: 'shortcut'; accelerator: string }
  /** Why this combination cannot be a global shortcut, in plain words. */
  | { kind: 'refused'; problem: string };

const NAMED: Record<string, string> = {
  Space: 'Space',
  Insert: 'Insert',
  Delete: 'Delete',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Enter: 'Return',
  Tab: 'Tab',
  Minus: '-',
  Equal: '=',
  Comma: ',',
  Period: '.',
  Slash: '/',
  Semicolon: ';',
  Quote: "'",
  BracketLeft: '[',
  BracketRight: ']',
  Backslash: '\\',
  Backquote: '`',
};

const MODIFIER_CODES = /^(Control|Alt|Shift|Meta|OS)(Left|Right)?$/;

/** The accelerator's key for `code`, or undefined for a key a shortcut cannot use. */
function keyOf(code: string): string | undefined {
  const letter = /^Key([A-Z])$/.exec(code);
  if (letter) return letter[1];
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(code);
  if (digit) return code.startsWith('Numpad') ? `num${digit[1]}` : digit[1];
  if (/^F([1-9]|1[0-9]|2[0-4])$/.test(code)) return code;
  return NAMED[code];
}

/** Reads one `keydown` of the recorder (Esc and Backspace are the recorder's own). */
export function recordKeys(event: PressedKeys, platform: string | undefined): Recorded {
  const mac = platform === 'darwin';
  const modifiers = [
    (mac ? event.metaKey : event.ctrlKey) ? 'CommandOrControl' : '',
    mac && event.ctrlKey ? 'Control' : '',
    event.altKey ? 'Alt' : '',
    event.shiftKey ? 'Shift' : '',
    !mac && event.metaKey ? 'Super' : '',
  ].filter(Boolean);
  const label = (parts: string[]) => shortcutLabel(parts.join('+'), platform);
  if (MODIFIER_CODES.test(event.code) || ['Control', 'Alt', 'Shift', 'Meta'].includes(event.key)) {
    return { kind: 'held', held: modifiers.length > 0 ? `${label(modifiers)}+…` : '' };
  }
  const key = keyOf(event.code);
  if (!key) {
    return {
      kind: 'refused',
      problem: event.key
        ? i18n.t('shortcut.unusableKey', { key: event.key })
        : i18n.t('shortcut.unusableThisKey'),
    };
  }
  const alone = modifiers.every((modifier) => modifier === 'Shift');
  if (alone && !/^F\d+$/.test(key)) {
    return {
      kind: 'refused',
      problem: i18n.t('shortcut.needsModifier', {
        shortcut: label([...modifiers, key]),
        ctrl: label(['CommandOrControl']),
        alt: label(['Alt']),
      }),
    };
  }
  return { kind: 'shortcut', accelerator: [...modifiers, key].join('+') };
}
