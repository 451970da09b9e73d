/** The relay addresses of a `relay_url` setting: one or more, separated by commas or spaces. */
export function relayUrls(setting: string): string[] {
  return setting
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((url) => url.replace(/\/+$/, ''));
}
