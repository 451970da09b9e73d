import { app, dialog, globalShortcut } from 'electron';
import { saveSettings } from '../core/config/settings-store';
import { LINK_SCHEMES } from '../core/desktop/launch-link';
import { linkHandlerStep, protocolClientArgs } from '../core/desktop/link-handler';
import type { Logger } from '../core/log/logger';
import type { Translate } from '../core/text/said';

/** Registers a global shortcut from the settings ("" is none); a taken one is logged. */
export function registerShortcut(
  accelerator: string,
  what: string,
  log: Logger,
  run: () => Promise<unknown>,
): void {
  if (accelerator === '') return;
  const ok = globalShortcut.register(accelerator, () => void run());
  if (!ok) log.warn(`the shortcut ${accelerator} to ${what} is taken by another app`);
}

/**
 * tel:/callto: handling per the `handle_links` setting: ask once, then keep the registration in
 * line with the answer. The link always arrives after `--` (see link-handler.ts).
 */
export async function offerLinkHandling(
  setting: 'ask' | 'yes' | 'no',
  dataDir: string,
  log: Logger,
  /** The `shell` words in the user's language. */
  t: Translate,
): Promise<void> {
  // A development run does not ask: answering would make the development Electron the handler.
  if (setting === 'ask' && !app.isPackaged) return;
  const { path, args } = protocolClientArgs({
    defaultApp: process.defaultApp === true,
    execPath: process.execPath,
    appPath: app.getAppPath(),
  });
  let step = linkHandlerStep(setting, (scheme) => app.isDefaultProtocolClient(scheme, path, args));
  if (step.kind === 'ask') {
    const answer = await dialog.showMessageBox({
      type: 'question',
      title: t('linkHandling.title'),
      message: t('linkHandling.message'),
      detail: t('linkHandling.detail'),
      buttons: [t('linkHandling.use'), t('linkHandling.notNow')],
      defaultId: 0,
      cancelId: 1,
    });
    const choice = answer.response === 0 ? 'yes' : 'no';
    try {
      await saveSettings({ dataDir }, { handle_links: choice });
    } catch (error) {
      log.warn('could not save the phone-link choice', { error });
    }
    step = linkHandlerStep(choice, (scheme) => app.isDefaultProtocolClient(scheme, path, args));
  }
  if (step.kind === 'register') {
    for (const scheme of step.schemes) {
      if (!app.setAsDefaultProtocolClient(scheme, path, args)) {
        log.warn(`could not register Callbar for ${scheme}: links`);
      }
    }
  } else if (step.kind === 'unregister') {
    for (const scheme of step.schemes) app.removeAsDefaultProtocolClient(scheme, path, args);
  }
  log.debug('link schemes', { schemes: LINK_SCHEMES, step: step.kind });
}
