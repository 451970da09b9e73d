/**
 * Where a keystroke's time goes, from the page probe's marks (page-probe.ts): each stage's
 * spread over the keystrokes that went through it, in the order they happen.
 */
import type { KeyTiming } from './page-probe';
import { showSpread, spread, type Spread } from './spread';

/** Stages between two marks of KeyTiming (`from` undefined: the keydown). */
const STAGES: { name: string; from?: keyof KeyTiming; to: keyof KeyTiming }[] = [
  { name: 'keydown → input event', to: 'inputMs' },
  { name: 'input event → search sent', from: 'inputMs', to: 'sentMs' },
  {
    name: 'input event → handled (the handler, the render of the typed text)',
    from: 'inputMs',
    to: 'inputDoneMs',
  },
  {
    name: 'search sent → answer (transport, router, index, JSON both ways)',
    from: 'sentMs',
    to: 'answeredMs',
  },
  { name: 'answer → list changed (store, React)', from: 'answeredMs', to: 'domMs' },
  { name: 'list changed → frame', from: 'domMs', to: 'paintMs' },
];

export type Split = Record<string, Spread>;

export function keystrokeSplit(timings: readonly KeyTiming[]): Split {
  const split: Split = {};
  for (const { name, from, to } of STAGES) {
    const values = timings
      .filter(
        (timing) => timing[to] !== undefined && (from === undefined || timing[from] !== undefined),
      )
      .map((timing) => (timing[to] as number) - (from ? (timing[from] as number) : 0));
    if (values.length > 0) split[name] = spread(values);
  }
  return split;
}

export function showSplit(split: Split, indent = '    '): string {
  return Object.entries(split)
    .map(([name, figures]) => `${indent}${name}: ${showSpread(figures)}`)
    .join('\n');
}
