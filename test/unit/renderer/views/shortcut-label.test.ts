import { describe, expect, it } from 'vitest';
import { shortcutLabel } from '../../../../src-renderer/src/views/shortcut-label';

describe('shortcutLabel: an Electron accelerator as the keyboard names it', () => {
  it('CommandOrControl is Cmd on macOS and Ctrl elsewhere', () => {
    expect(shortcutLabel('CommandOrControl+Shift+D', 'darwin')).toBe('Cmd+Shift+D');
    expect(shortcutLabel('CommandOrControl+Shift+D', 'linux')).toBe('Ctrl+Shift+D');
    expect(shortcutLabel('CmdOrCtrl+Shift+D', 'win32')).toBe('Ctrl+Shift+D');
  });

  it('names the other modifiers per platform and leaves keys as written', () => {
    expect(shortcutLabel('Alt+Super+F9', 'win32')).toBe('Alt+Win+F9');
    expect(shortcutLabel('Alt+Super+F9', 'linux')).toBe('Alt+Super+F9');
    expect(shortcutLabel('Option+Meta+Plus', 'darwin')).toBe('Option+Cmd+Plus');
    expect(shortcutLabel('Control+Shift+K', 'darwin')).toBe('Ctrl+Shift+K');
    // Before app.info has answered, the platform is unknown: the Windows/Linux names.
    expect(shortcutLabel('CommandOrControl+Shift+D', undefined)).toBe('Ctrl+Shift+D');
  });
});
