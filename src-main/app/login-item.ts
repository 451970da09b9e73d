import { app } from 'electron';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/files/atomic-write';
import { autostartDesktopEntry, loginItemSettings } from '../core/desktop/login-item';
import type { Logger } from '../core/log/logger';

/**
 * Applies the `open_at_login` setting: the OS login item on macOS and Windows, an XDG autostart
 * entry on Linux. Only for the installed app: a development run would register Electron itself.
 */
export async function applyLoginItem(openAtLogin: boolean, log: Logger): Promise<void> {
  if (!app.isPackaged) return;
  try {
    if (process.platform === 'linux') {
      // An AppImage runs from a temporary mount: start the image file itself.
      const exec = process.env.APPIMAGE ?? process.execPath;
      const entry = autostartDesktopEntry(exec);
      const file = join(app.getPath('appData'), 'autostart', entry.fileName);
      if (openAtLogin) await writeFileAtomic(file, entry.text, { mode: 0o644, dirMode: 0o755 });
      else await rm(file, { force: true });
    } else {
      app.setLoginItemSettings(loginItemSettings(openAtLogin, process.execPath));
    }
  } catch (error) {
    log.warn('could not change the start-at-login entry', { error });
  }
}
