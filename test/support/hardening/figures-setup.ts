/**
 * Vitest global setup of the hardening suite: gives every test file a file to append its figures
 * to, and prints them as one table when the run ends (README "Security" quotes it).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { FIGURES_FILE_KEY, type Figure } from './figures';

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'callbar-hardening-'));
  const file = join(dir, 'figures.jsonl');
  project.provide(FIGURES_FILE_KEY, file);
  return () => {
    let lines: string[] = [];
    try {
      lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    } catch {
      /* no file recorded a figure */
    }
    const figures = lines.map((line) => JSON.parse(line) as Figure);
    if (figures.length > 0) {
      const width = Math.max(...figures.map((figure) => figure.what.length));
      console.log('\nHardening figures');
      for (const figure of figures) console.log(`  ${figure.what.padEnd(width)}  ${figure.value}`);
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    [FIGURES_FILE_KEY]: string;
  }
}
