/** Figures a hardening test measured, collected for the table printed at the end of the run. */
import { appendFileSync } from 'node:fs';
import { inject } from 'vitest';

export const FIGURES_FILE_KEY = 'callbarHardeningFigures';

export interface Figure {
  what: string;
  value: string;
}

export function recordFigure(what: string, value: string | number): void {
  const figure: Figure = { what, value: String(value) };
  appendFileSync(inject(FIGURES_FILE_KEY), `${JSON.stringify(figure)}\n`);
}
