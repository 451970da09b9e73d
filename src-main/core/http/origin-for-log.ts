/**
 * A URL's scheme and host for a log line or a message ("https://evil.test"), never its path or
 * query, which may hold anything (an activation code, personal data).
 */
export function originForLog(url: string | undefined): string {
  if (url === undefined) return 'no address';
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'an unreadable address';
  }
}
