/**
 * `url` as a directory (with a trailing slash), so that relative paths resolve under its path:
 * `new URL('v3/x/', directoryUrl('https://pbx.example/api'))` is `https://pbx.example/api/v3/x/`,
 * not `https://pbx.example/v3/x/`.
 */
export function directoryUrl(url: string): URL {
  return new URL(url.endsWith('/') ? url : `${url}/`);
}
