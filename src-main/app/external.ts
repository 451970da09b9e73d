import { shell } from 'electron';
import { isAllowedExternalUrl, refusedExternalUrl } from '../core/desktop/external-url';
import type { Logger } from '../core/log/logger';

/**
 * The only `shell.openExternal` in Callbar: the system browser opens the configured portal and
 * nothing else. Refusals are logged by origin only.
 */
export function externalOpener(portalUrl: string, log: Logger) {
  return async (url: string): Promise<void> => {
    if (!isAllowedExternalUrl(url, portalUrl)) {
      const message = refusedExternalUrl(url);
      log.warn(message);
      throw new Error(message);
    }
    await shell.openExternal(url);
  };
}
