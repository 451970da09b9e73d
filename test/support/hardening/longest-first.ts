/**
 * The hardening suite's file order: the files that take longest first, so that with two at a time
 * (`npm test`) no long file starts late and runs alone at the end. Without it vitest runs the
 * larger files first on a fresh clone (no timings kept yet), which put `refresh-kill` tenth.
 * The order below is by the CPU-seconds each file took alone (issue 46); files not named keep
 * vitest's order after them.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const LONGEST = [
  'refresh-kill',
  'network-faults',
  'refresh-interrupt',
  'receiver-fuzz',
  'hostile-platform',
  'forged-legs',
  'repeat-dial',
  'event-flood',
  'relay-internet',
];

function rank(spec: TestSpecification): number {
  const index = LONGEST.findIndex((name) => spec.moduleId.endsWith(`/${name}.test.ts`));
  return index === -1 ? LONGEST.length : index;
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // A stable sort: the files not named stay in vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
