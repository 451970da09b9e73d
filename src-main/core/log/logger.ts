import { dirname } from 'node:path';
import { appendFileNoFollow } from '../files/no-follow-file';
import { ownSubfolder } from '../files/own-subfolder';
import { rotateWhenFull } from './log-rotation';

/**
 * Structured logging with redaction. Fields whose names suggest a secret are replaced before a
 * line is written, so a careless `log.info('x', { token })` cannot leak one.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const SECRET_KEY = /token|secret|password|authorization|confirmation_key|cookie/i;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 5) return '[…]';
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        SECRET_KEY.test(key) ? '[redacted]' : redact(inner, depth + 1),
      ]),
    );
  }
  return value;
}

/** A logger writing one JSON object per line to `write` (stderr by default). */
export function createLogger(
  write: (line: string) => void = (line) => process.stderr.write(line + '\n'),
  minimum: LogLevel = 'info',
): Logger {
  const order: LogLevel[] = ['debug', 'info', 'warn', 'error'];
  const log = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (order.indexOf(level) < order.indexOf(minimum)) return;
    const line = { time: new Date().toISOString(), level, message, ...(redact(fields) as object) };
    write(JSON.stringify(line));
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** A logger that drops everything (for tests that do not look at logs). */
export const silentLogger: Logger = createLogger(() => undefined, 'error');

/** Where the log rotates: `callbar.log` → `callbar.log.1` past this size (one old file kept). */
export const LOG_MAX_BYTES = 2 * 1024 * 1024;

/**
 * A logger appending to a file (created 0600 with its folder), for the app's and CLI's log. Past
 * `maxBytes` the file is renamed to `<path>.1` (replacing the previous one) and a new one started,
 * so the log never takes more than about twice `maxBytes`, however many processes of the profile
 * append to it (log-rotation.ts: one of them rotates, and only a full file).
 */
export function createFileLogger(
  path: string,
  minimum: LogLevel = 'info',
  maxBytes = LOG_MAX_BYTES,
): Logger {
  ownSubfolder(dirname(path));
  return createLogger((line) => {
    const text = line + '\n';
    rotateWhenFull(path, Buffer.byteLength(text), maxBytes);
    appendFileNoFollow(path, text, 0o600);
  }, minimum);
}
