import { Notification } from 'electron';
import type { Logger } from '../core/log/logger';

/** Shows a desktop notification when the OS supports them; a click runs `onClick`. */
export function notify(
  log: Logger,
  notice: { title: string; body: string },
  onClick?: () => void,
): void {
  if (!Notification.isSupported()) {
    log.info('notification not shown (unsupported here)', { title: notice.title });
    return;
  }
  const notification = new Notification({ title: notice.title, body: notice.body });
  if (onClick) notification.on('click', onClick);
  notification.show();
}
