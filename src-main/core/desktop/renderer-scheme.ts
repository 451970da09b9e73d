/**
 * Which file an app://callbar/… request may read: only GET requests for the callbar host, and
 * only files inside the renderer bundle (no `..`, encoded dots or slashes, absolute paths).
 * Everything else is answered 404 by the shell.
 */
import { fileUnderRoot } from '../http/file-under-root';
import { APP_HOST, APP_SCHEME } from './window-security';

export function rendererFileFor(
  requestUrl: string,
  method: string,
  rendererDir: string,
): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || method !== 'GET') {
    return undefined;
  }
  return fileUnderRoot(rendererDir, url.pathname);
}
