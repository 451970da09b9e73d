/**
 * Times and durations as the window shows them, in the window's locale (src-shared/i18n/format).
 */
import { formatClockDuration, formatDateTime, type Locale } from '../../../src-shared/i18n';

/** "14:07" today, "5 Mar, 14:07" ("5. März, 14:07") on another day. */
export function formatTime(iso: string, locale: Locale, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
  return date.toDateString() === now.toDateString()
    ? formatDateTime(locale, date, time)
    : formatDateTime(locale, date, { day: 'numeric', month: 'short', ...time });
}

/** "0:07", "12:45", "1:02:03". */
export function formatDuration(ms: number, locale: Locale): string {
  return formatClockDuration(locale, ms);
}
