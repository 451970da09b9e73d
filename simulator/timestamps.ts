/**
 * Timestamps as the platform writes them: ISO 8601 with microseconds and the UTC offset of the
 * service's time zone (e.g. `2024-03-05T14:07:09.123000+01:00`), as Django REST Framework renders
 * an aware datetime outside UTC.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

export function isoWithOffset(ms: number, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) parts[part.type] = part.value;
  const zone = parts.timeZoneName ?? 'GMT';
  const offset = zone === 'GMT' ? '+00:00' : zone.replace('GMT', '');
  const millis = String(((ms % 1000) + 1000) % 1000).padStart(3, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${millis}000${offset}`;
}

/** Throws a RangeError for a time zone Intl does not know. */
export function assertTimeZone(timeZone: string): void {
  formatter(timeZone);
}
