/**
 * The two Debian Chromium builds the end-to-end tests drive (never a downloaded browser):
 *
 * - the full browser (`chromium`), for what must behave as a user's browser does: extensions
 *   (browser-extension.spec.ts) and hostile sites with a process per site (hostile-origins.spec.ts);
 * - the headless shell (`chromium-headless-shell`, the same Blink without the browser's UI
 *   layer: what Playwright itself runs headless by default), for the window's tests. The same 39
 *   tests took 190 and 198 CPU-s in it against 220 and 222 in the full browser, run alternately.
 *   Without the shell installed, the window's tests use the full browser.
 *
 * CHROMIUM_PATH and CHROMIUM_SHELL_PATH name other binaries.
 */
import { existsSync } from 'node:fs';

export const FULL_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const shell = process.env.CHROMIUM_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';
export const WINDOW_CHROMIUM = existsSync(shell) ? shell : FULL_CHROMIUM;
