import { app } from 'electron';
import log from 'electron-log/main';
import { join } from 'node:path';
import { createLogger, type Logger } from '../core/log/logger';

/**
 * Callbar's log in the OS's log folder (`app.getPath('logs')`) through electron-log, with core's
 * redaction: every line is written by core's logger, which replaces secret-looking fields before
 * electron-log sees them. Uncaught errors are caught and logged by name and message only.
 */
export function createAppLogger(): Logger {
  log.transports.file.resolvePathFn = () => join(app.getPath('logs'), 'callbar-app.log');
  log.transports.file.maxSize = 5 * 1024 * 1024;
  log.transports.console.level = app.isPackaged ? false : 'info';
  const logger = createLogger((line) => log.info(line), app.isPackaged ? 'info' : 'debug');
  log.errorHandler.startCatching({
    showDialog: false,
    onError: ({ error }) => {
      logger.error('uncaught error', { error });
      return false;
    },
  });
  return logger;
}
