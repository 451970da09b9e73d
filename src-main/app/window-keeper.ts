import { app, type BrowserWindow } from 'electron';
import type { CallbarCore } from '../core/callbar-core';
import { forwardEvents } from './ipc-wiring';
import { createWindow, type WindowContext } from './windows';

/** The main window (created on demand, hidden rather than closed) and the first-run setup window. */
export class WindowKeeper {
  #main: BrowserWindow | undefined;
  #setup: BrowserWindow | undefined;

  constructor(
    private readonly core: CallbarCore,
    private readonly context: WindowContext,
    private readonly closeToTray: boolean,
    /** True once the user chose Quit: closing the main window then really closes it. */
    private readonly isQuitting: () => boolean,
  ) {
    core.events.subscribe((event) => {
      // Connected: the setup window comes forward to say so and how to reach Callbar from now on;
      // its Open Callbar (app.showMain → finishSetup) hands over to the main window.
      if (event.type !== 'account.changed' || event.status.state !== 'connected') return;
      const setup = this.#setup;
      if (setup && !setup.isDestroyed()) {
        setup.show();
        setup.focus();
      }
    });
  }

  showMain(): BrowserWindow {
    let window = this.#main;
    if (!window || window.isDestroyed()) {
      window = this.#open('main');
      window.on('close', (event) => {
        if (this.closeToTray && !this.isQuitting()) {
          event.preventDefault();
          window?.hide();
        } else if (process.platform !== 'darwin') {
          app.quit();
        }
      });
      this.#main = window;
    }
    if (window.isMinimized()) window.restore();
    if (window.webContents.isLoading()) window.once('ready-to-show', () => window.show());
    else window.show();
    window.focus();
    return window;
  }

  showSetup(): void {
    if (this.#setup && !this.#setup.isDestroyed()) return this.#setup.focus();
    const window = this.#open('setup');
    window.once('ready-to-show', () => window.show());
    window.once('closed', () => (this.#setup = undefined));
    this.#setup = window;
  }

  /** The setup window's Open Callbar: the main window takes over. */
  finishSetup(): void {
    this.showMain();
    if (this.#setup && !this.#setup.isDestroyed()) this.#setup.close();
  }

  /** Runs `then` once `window` has loaded the renderer (at once when it has). */
  whenLoaded(window: BrowserWindow, then: () => void): void {
    if (window.webContents.isLoading()) window.webContents.once('did-finish-load', then);
    else then();
  }

  #open(kind: 'main' | 'setup'): BrowserWindow {
    const window = createWindow(kind, this.context);
    forwardEvents(this.core, window);
    return window;
  }
}
