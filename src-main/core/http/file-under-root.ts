import { resolve, sep } from 'node:path';

/**
 * The file a URL path names inside `root` (`/` is index.html), or undefined when the path is
 * malformed or leads outside it (`..`, encoded slashes).
 */
export function fileUnderRoot(root: string, pathname: string): string | undefined {
  let relative: string;
  try {
    relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname.slice(1));
  } catch {
    return undefined;
  }
  const base = resolve(root);
  const file = resolve(base, relative);
  return file.startsWith(base + sep) ? file : undefined;
}
