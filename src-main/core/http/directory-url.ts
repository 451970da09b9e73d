/**
 * `url` as a directory (with a trailing slash), so that relative paths resolve under its path:
 * `new URL('v3/x/', directoryUrl('https://pbx.example/api'))` is `https://pbx.example/api/v3/x/`,
 * not `https://pbx.example/v3/x/`.
 */
export function directoryUrl(url: string): URL {
  return new URL(url.endsWith('/') ? url : `${url}/`);
}

/**
 * Whether two base URLs name one platform: `https://pbx.example/api` and `…/api/` do (the
 * session's, the settings', the directory's owner). A text that is no URL equals only itself.
 */
export function samePlatform(a: string, b: string): boolean {
  const canonical = (url: string) => {
    try {
      return new URL(url).href.replace(/\/+$/, '');
    } catch {
      return url;
    }
  };
  return canonical(a) === canonical(b);
}
