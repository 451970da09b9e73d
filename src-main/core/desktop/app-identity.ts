/**
 * Names the OS knows Callbar by. They must match the packaging (electron-builder.json: appId,
 * linux.executableName; package.json: desktopName), which test/unit/core/desktop/packaging.test.ts checks.
 */

/** The application id: Windows notifications (AppUserModelID), macOS bundle id. */
export const APP_ID = 'com.callbar.desktop';

/** The freedesktop desktop file (link handler, autostart, window association). */
export const DESKTOP_FILE = 'callbar.desktop';
