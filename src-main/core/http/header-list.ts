/**
 * Extra HTTP headers given as text ("Name: value" lines), as the platform's shared-secret
 * headers are configured for the receiver (CALLBAR_RECEIVER_HEADERS) and the relay
 * (RELAY_PLATFORM_HEADERS).
 */
import { CallbarError } from '../errors';

/** "Name: value" → { name: value }; several separated by newlines. */
export function parseHeaderList(
  text: string | undefined,
  variable: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of (text ?? '').split('\n')) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    if (colon <= 0 || !/^[A-Za-z0-9-]+$/.test(name)) {
      throw new CallbarError(
        'settings_invalid',
        `${variable} must hold lines of the form "Name: value".`,
      );
    }
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}
