import { shell } from 'electron';
import { refusedExternalUrl } from '../core/desktop/external-url';
import type { Logger } from '../core/log/logger';

/**
 * The only `shell.openExternal` in Callbar, behind an allow-list (`allowed`, from
 * core/desktop/external-url.ts). Refusals are logged by origin only.
 */
export function externalOpener(allowed: (url: string) => boolean, log: Logger) {
  return async (url: string): Promise<void> => {
    if (!allowed(url)) {
      const message = refusedExternalUrl(url);
      log.warn(message);
      throw new Error(message);
    }
    await shell.openExternal(url);
  };
}
