/**
 * Starting Callbar when the user logs in (setting `open_at_login`, off by default), and starting
 * it hidden in the tray when it was started that way.
 *
 * macOS and Windows keep login items themselves (Electron's `setLoginItemSettings`); on Linux
 * the freedesktop way is a `.desktop` file in `~/.config/autostart`, written by the shell.
 */

import { DESKTOP_FILE } from './app-identity';

/** The switch a login start carries (before the `--` that may precede a link). */
export const HIDDEN_SWITCH = '--hidden';

/** What the shell passes to `app.setLoginItemSettings` (macOS, Windows). */
export function loginItemSettings(openAtLogin: boolean, execPath: string) {
  return { openAtLogin, path: execPath, args: [HIDDEN_SWITCH] };
}

/** The XDG autostart file's name and text for Linux, given the executable to start. */
export function autostartDesktopEntry(execPath: string): { fileName: string; text: string } {
  // Desktop-entry Exec quoting: the path in double quotes, with ", `, $ and \ escaped.
  const quoted = `"${execPath.replace(/(["`$\\])/g, '\\$1')}"`;
  return {
    fileName: DESKTOP_FILE,
    text: [
      '[Desktop Entry]',
      'Type=Application',
      'Name=Callbar',
      'Comment=Click-to-dial for your business phone',
      `Exec=${quoted} ${HIDDEN_SWITCH}`,
      'Icon=callbar',
      'Terminal=false',
      'X-GNOME-Autostart-enabled=true',
      '',
    ].join('\n'),
  };
}

/**
 * Whether this launch starts with the window hidden: the user asked for it, or the OS started
 * Callbar at login. A link on the command line always shows the window (it may need a yes).
 */
export function startsHidden(options: {
  argv: readonly string[];
  startMinimized: boolean;
  wasOpenedAtLogin: boolean;
  hasLink: boolean;
}): boolean {
  if (options.hasLink) return false;
  const separator = options.argv.indexOf('--');
  const switches = separator === -1 ? options.argv : options.argv.slice(0, separator);
  return options.startMinimized || options.wasOpenedAtLogin || switches.includes(HIDDEN_SWITCH);
}
