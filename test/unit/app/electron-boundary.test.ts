import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
/** The only files allowed to import Electron: the shell and the preload entry. */
const allowed = (file: string) =>
  file.startsWith('src-main/app/') || file === 'src-preload/index.ts';
const importsElectron =
  /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]electron(?:\/[^'"]*)?['"]/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|js|mjs)$/.test(name) ? [path] : [];
  });
}

describe('the Electron boundary', () => {
  const files = ['src-main', 'src-preload', 'src-renderer', 'simulator', 'bin']
    .flatMap((dir) => {
      try {
        return sourceFiles(join(root, dir));
      } catch {
        return [];
      }
    })
    .map((path) => relative(root, path));

  it('finds the shell importing electron (the check itself works)', () => {
    const shell = files.filter(allowed);
    expect(shell.some((file) => importsElectron.test(readFileSync(join(root, file), 'utf8')))).toBe(
      true,
    );
  });

  it('nothing outside src-main/app and the preload imports electron', () => {
    const offenders = files
      .filter((file) => !allowed(file))
      .filter((file) => importsElectron.test(readFileSync(join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
