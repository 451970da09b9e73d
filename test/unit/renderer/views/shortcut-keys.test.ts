import { beforeAll, describe, expect, it } from 'vitest';
import { isElectronAccelerator } from '../../../../src-main/core/config/accelerator';
import { withScreenTexts } from '../../../../src-renderer/src/i18n';
import { recordKeys, type PressedKeys } from '../../../../src-renderer/src/views/shortcut-keys';

// Settings' shortcut recorder speaks with the texts of the screens loaded when opened.
beforeAll(() => withScreenTexts(Promise.resolve()));

const press = (code: string, key: string, held: Partial<PressedKeys> = {}): PressedKeys => ({
  code,
  key,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...held,
});

describe('recordKeys: a pressed combination as an Electron accelerator', () => {
  it('Ctrl (Cmd on macOS) is CommandOrControl; keys by position, whatever the layout', () => {
    const linux = recordKeys(press('KeyD', 'd', { ctrlKey: true, shiftKey: true }), 'linux');
    expect(linux).toEqual({ kind: 'shortcut', accelerator: 'CommandOrControl+Shift+D' });
    const mac = recordKeys(press('KeyD', 'd', { metaKey: true, shiftKey: true }), 'darwin');
    expect(mac).toEqual({ kind: 'shortcut', accelerator: 'CommandOrControl+Shift+D' });
    // A German keyboard's Z key sits where KeyY is: the position counts, not the letter.
    const german = recordKeys(press('KeyY', 'z', { ctrlKey: true, altKey: true }), 'win32');
    expect(german).toEqual({ kind: 'shortcut', accelerator: 'CommandOrControl+Alt+Y' });
    expect(recordKeys(press('KeyK', 'k', { ctrlKey: true, metaKey: true }), 'darwin')).toEqual({
      kind: 'shortcut',
      accelerator: 'CommandOrControl+Control+K',
    });
    expect(recordKeys(press('F9', 'F9'), 'linux')).toEqual({ kind: 'shortcut', accelerator: 'F9' });
    expect(recordKeys(press('ArrowUp', 'ArrowUp', { altKey: true }), 'linux')).toEqual({
      kind: 'shortcut',
      accelerator: 'Alt+Up',
    });
  });

  it('every shortcut it makes is an accelerator core accepts', () => {
    const codes = ['KeyA', 'Digit5', 'Numpad3', 'F24', 'Space', 'Slash', 'Quote', 'PageDown'];
    for (const code of codes) {
      const recorded = recordKeys(press(code, '?', { ctrlKey: true, altKey: true }), 'linux');
      expect(recorded.kind, code).toBe('shortcut');
      if (recorded.kind === 'shortcut')
        expect(isElectronAccelerator(recorded.accelerator)).toBe(true);
    }
  });

  it('waits while only modifiers are held, saying which', () => {
    expect(recordKeys(press('ControlLeft', 'Control', { ctrlKey: true }), 'linux')).toEqual({
      kind: 'held',
      held: 'Ctrl+…',
    });
    expect(recordKeys(press('MetaLeft', 'Meta', { metaKey: true }), 'darwin')).toEqual({
      kind: 'held',
      held: 'Cmd+…',
    });
  });

  it('refuses a key that every app would lose, and keys a shortcut cannot use, in plain words', () => {
    expect(recordKeys(press('KeyK', 'k'), 'linux')).toEqual({
      kind: 'refused',
      problem: 'K would take that key from every app: hold Ctrl or Alt with it.',
    });
    expect(recordKeys(press('KeyK', 'K', { shiftKey: true }), 'darwin')).toEqual({
      kind: 'refused',
      problem: 'Shift+K would take that key from every app: hold Cmd or Option with it.',
    });
    const refused = recordKeys(press('IntlBackslash', '<', { ctrlKey: true }), 'linux');
    expect(refused).toEqual({
      kind: 'refused',
      problem: '< cannot be part of a shortcut: use a letter, a digit or F1–F24.',
    });
  });
});
