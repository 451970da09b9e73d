import { Notification } from 'electron';
import { plainNotification } from '../core/desktop/notification-planner';
import type { Logger } from '../core/log/logger';

/**
 * Shows a desktop notification when the OS supports them, as plain text for this platform (see
 * plainNotification); a click runs `onClick`.
 */
export function notify(
  log: Logger,
  notice: { title: string; body: string },
  onClick?: () => void,
): void {
  if (!Notification.isSupported()) {
    log.info('notification not shown (unsupported here)', { title: notice.title });
    return;
  }
  const { title, body } = plainNotification(notice, process.platform);
  const notification = new Notification({ title, body });
  if (onClick) notification.on('click', onClick);
  notification.show();
}
