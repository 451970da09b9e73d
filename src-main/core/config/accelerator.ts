/**
 * Electron accelerator strings ("CommandOrControl+Shift+D"), checked without Electron so core can
 * reject a typo in the settings file before the shell tries to register a global shortcut.
 * Grammar: https://www.electronjs.org/docs/latest/api/accelerator (case-insensitive, like Electron).
 */

const MODIFIERS = new Set([
  'command',
  'cmd',
  'control',
  'ctrl',
  'commandorcontrol',
  'cmdorctrl',
  'alt',
  'option',
  'altgr',
  'shift',
  'super',
  'meta',
]);

const NAMED_KEYS = new Set([
  'plus',
  'space',
  'tab',
  'capslock',
  'numlock',
  'scrolllock',
  'backspace',
  'delete',
  'insert',
  'return',
  'enter',
  'up',
  'down',
  'left',
  'right',
  'home',
  'end',
  'pageup',
  'pagedown',
  'escape',
  'esc',
  'volumeup',
  'volumedown',
  'volumemute',
  'medianexttrack',
  'mediaprevioustrack',
  'mediastop',
  'mediaplaypause',
  'printscreen',
  'numdec',
  'numadd',
  'numsub',
  'nummult',
  'numdiv',
]);

const SINGLE_CHARACTER_KEY = /^[a-z0-9)!@#$%^&*(:;+=<,_\->.?/~`{}[\]|\\'"]$/;
const FUNCTION_KEY = /^f([1-9]|1[0-9]|2[0-4])$/;
const NUMPAD_DIGIT = /^num[0-9]$/;

function isKeyCode(part: string): boolean {
  return (
    SINGLE_CHARACTER_KEY.test(part) ||
    FUNCTION_KEY.test(part) ||
    NUMPAD_DIGIT.test(part) ||
    NAMED_KEYS.has(part)
  );
}

/**
 * True when `value` is an Electron accelerator: any number of distinct modifiers joined by `+`,
 * followed by exactly one key code (`Plus` stands for the + key).
 */
export function isElectronAccelerator(value: string): boolean {
  const parts = value.toLowerCase().split('+');
  const key = parts.pop();
  if (key === undefined || !isKeyCode(key)) return false;
  return parts.every((part) => MODIFIERS.has(part)) && new Set(parts).size === parts.length;
}
