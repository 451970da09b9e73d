/**
 * An Electron accelerator as a person reads it on their keyboard: "CommandOrControl+Shift+D" is
 * Ctrl+Shift+D on Windows and Linux and Cmd+Shift+D on macOS (`platform` is `process.platform`),
 * with the names the window's language gives Ctrl and Shift (Strg+Umschalt+D in German).
 */
import { i18n } from '../i18n';

export function shortcutLabel(accelerator: string, platform: string | undefined): string {
  const mac = platform === 'darwin';
  const ctrl = i18n.t('keys.ctrl');
  const names: Record<string, string> = {
    commandorcontrol: mac ? 'Cmd' : ctrl,
    cmdorctrl: mac ? 'Cmd' : ctrl,
    command: 'Cmd',
    cmd: 'Cmd',
    control: ctrl,
    ctrl,
    shift: i18n.t('keys.shift'),
    option: mac ? 'Option' : 'Alt',
    alt: mac ? 'Option' : 'Alt',
    super: mac ? 'Cmd' : platform === 'win32' ? 'Win' : 'Super',
    meta: mac ? 'Cmd' : platform === 'win32' ? 'Win' : 'Super',
  };
  return accelerator
    .split('+')
    .map((part) => names[part.toLowerCase()] ?? part)
    .join('+');
}
