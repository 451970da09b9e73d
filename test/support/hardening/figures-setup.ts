/**
 * Vitest global setup of the hardening suite: gives every test file a file to append its figures
 * to, and prints them as one table when the run ends (README "Security" quotes it).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { FIGURES_FILE_KEY, type Figure } from './figures';

/**
 * The run's one figures file and table. Each vitest project of the hardening config (the files
 * run alone and those sharing a worker, vitest.hardening.config.ts) calls this setup; they share
 * the file through the main process's global, and the last project to end prints the one table.
 */
interface FiguresRun {
  dir: string;
  file: string;
  projects: number;
}
const RUN_KEY = Symbol.for('callbar.hardeningFigures');
const shared = globalThis as { [RUN_KEY]?: FiguresRun };

export default function setup(project: TestProject) {
  if (!shared[RUN_KEY]) {
    const dir = mkdtempSync(join(tmpdir(), 'callbar-hardening-'));
    shared[RUN_KEY] = { dir, file: join(dir, 'figures.jsonl'), projects: 0 };
  }
  const run = shared[RUN_KEY];
  run.projects += 1;
  project.provide(FIGURES_FILE_KEY, run.file);
  return () => {
    run.projects -= 1;
    if (run.projects > 0) return;
    delete shared[RUN_KEY];
    let lines: string[] = [];
    try {
      lines = readFileSync(run.file, 'utf8').split('\n').filter(Boolean);
    } catch {
      /* no file recorded a figure */
    }
    const figures = lines.map((line) => JSON.parse(line) as Figure);
    if (figures.length > 0) {
      const width = Math.max(...figures.map((figure) => figure.what.length));
      console.log('\nHardening figures');
      for (const figure of figures) console.log(`  ${figure.what.padEnd(width)}  ${figure.value}`);
    }
    rmSync(run.dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    [FIGURES_FILE_KEY]: string;
  }
}
