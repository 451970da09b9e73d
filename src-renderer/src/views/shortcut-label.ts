/**
 * An Electron accelerator as a person reads it on their keyboard: "CommandOrControl+Shift+D" is
 * Ctrl+Shift+D on Windows and Linux and Cmd+Shift+D on macOS (`platform` is `process.platform`).
 */
export function shortcutLabel(accelerator: string, platform: string | undefined): string {
  const mac = platform === 'darwin';
  const names: Record<string, string> = {
    commandorcontrol: mac ? 'Cmd' : 'Ctrl',
    cmdorctrl: mac ? 'Cmd' : 'Ctrl',
    command: 'Cmd',
    cmd: 'Cmd',
    control: 'Ctrl',
    ctrl: 'Ctrl',
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
