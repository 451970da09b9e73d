/**
 * Where a Callbar profile lives: settings, cache and logs. The keychain entry is keyed by this
 * folder too, so two data dirs never share a session.
 */
import { homedir } from 'node:os';
import { join, posix, resolve, win32 } from 'node:path';

/** The application's folder name under the OS's per-user application-data folder. */
export const APP_FOLDER_NAME = 'Callbar';

/** The machine facts {@link resolveDataDir} depends on (overridable in tests). */
export interface DataDirHost {
  platform: NodeJS.Platform;
  homeDir: string;
}

/**
 * `CALLBAR_DATA_DIR` when set (made absolute), otherwise the folder Electron's
 * `app.getPath('userData')` gives an app named "Callbar":
 * Linux and other Unixes `$XDG_CONFIG_HOME/Callbar` or `~/.config/Callbar`;
 * macOS `~/Library/Application Support/Callbar`; Windows `%APPDATA%\Callbar`.
 */
export function resolveDataDir(
  env: NodeJS.ProcessEnv = process.env,
  host: DataDirHost = { platform: process.platform, homeDir: homedir() },
): string {
  const explicit = env.CALLBAR_DATA_DIR;
  if (explicit) return resolve(explicit);
  if (host.platform === 'win32') {
    const appData = env.APPDATA || win32.join(host.homeDir, 'AppData', 'Roaming');
    return win32.join(appData, APP_FOLDER_NAME);
  }
  if (host.platform === 'darwin') {
    return posix.join(host.homeDir, 'Library', 'Application Support', APP_FOLDER_NAME);
  }
  const configHome = env.XDG_CONFIG_HOME || posix.join(host.homeDir, '.config');
  return posix.join(configHome, APP_FOLDER_NAME);
}

/** The settings file's name inside the data dir. */
export const SETTINGS_FILE_NAME = 'settings.json';

/** The settings file of the profile in `dataDir` (light: the CLI reads its language from it). */
export function settingsFilePath(dataDir: string): string {
  return join(dataDir, SETTINGS_FILE_NAME);
}
