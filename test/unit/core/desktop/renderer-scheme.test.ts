import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rendererFileFor } from '../../../../src-main/core/desktop/renderer-scheme';

describe('app://callbar/ path handling', () => {
  const root = resolve('/opt/Callbar/resources/app.asar/out/renderer');

  it('serves files inside the renderer bundle', () => {
    expect(rendererFileFor('app://callbar/index.html', 'GET', root)).toBe(join(root, 'index.html'));
    expect(rendererFileFor('app://callbar/', 'GET', root)).toBe(join(root, 'index.html'));
    expect(rendererFileFor('app://callbar/assets/main-1a2b.js?v=1#x', 'GET', root)).toBe(
      join(root, 'assets/main-1a2b.js'),
    );
  });

  it('404s traversal, encoded dots and slashes, and absolute paths', () => {
    for (const url of [
      'app://callbar/../../../../etc/passwd',
      'app://callbar/%2e%2e/%2e%2e/package.json',
      'app://callbar/%2E%2E%2Fmain%2Findex.js',
      'app://callbar/assets/..%2f..%2f..%2fmain/index.js',
      'app://callbar/%2Fetc%2Fpasswd',
      'app://callbar//etc/passwd',
      'app://callbar/%E0%A4%A',
    ]) {
      const file = rendererFileFor(url, 'GET', root);
      expect(file === undefined || file.startsWith(root + '/'), url).toBe(true);
      if (file !== undefined) expect(file, url).not.toContain('..');
    }
    expect(rendererFileFor('app://callbar/%2Fetc%2Fpasswd', 'GET', root)).toBeUndefined();
    expect(rendererFileFor('app://callbar/..%2f..%2fpackage.json', 'GET', root)).toBeUndefined();
    // The URL parser itself folds a leading encoded "..": what is left is still inside the bundle.
    expect(rendererFileFor('app://callbar/%2e%2e/package.json', 'GET', root)).toBe(
      join(root, 'package.json'),
    );
  });

  it('404s another host, another scheme, and anything but GET', () => {
    expect(rendererFileFor('app://other/index.html', 'GET', root)).toBeUndefined();
    expect(rendererFileFor('file:///opt/index.html', 'GET', root)).toBeUndefined();
    expect(rendererFileFor('app://callbar/index.html', 'POST', root)).toBeUndefined();
    expect(rendererFileFor('not a url', 'GET', root)).toBeUndefined();
  });
});
