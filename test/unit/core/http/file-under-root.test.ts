import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileUnderRoot } from '../../../../src-main/core/http/file-under-root';

describe('fileUnderRoot', () => {
  const root = resolve('/srv/renderer');

  it('maps / to index.html and other paths to files inside the root', () => {
    expect(fileUnderRoot(root, '/')).toBe(join(root, 'index.html'));
    expect(fileUnderRoot(root, '/assets/index-1a2b.js')).toBe(join(root, 'assets/index-1a2b.js'));
    expect(fileUnderRoot(root, '/a%20b.css')).toBe(join(root, 'a b.css'));
  });

  it('refuses paths that lead outside the root, plainly or encoded', () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets/../../x',
    ]) {
      expect(fileUnderRoot(root, path), path).toBeUndefined();
    }
    // A sibling folder whose name starts with the root's name is outside too.
    expect(fileUnderRoot(root, '/..%2frenderer-other/x.js')).toBeUndefined();
  });

  it('refuses malformed percent-encoding instead of throwing', () => {
    expect(fileUnderRoot(root, '/%E0%A4%A')).toBeUndefined();
  });
});
