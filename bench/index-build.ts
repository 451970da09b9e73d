/**
 * The contact index build at 100,000 contacts as a person meets it: the first build in a freshly
 * started process (cold: V8 has compiled nothing of the index yet, which is what happens at start),
 * then warm builds in the same process; the heap the index holds; where the cold build's time goes
 * (its phases, timed between the gradual build's yields with one slice a phase); and the gradual
 * build's slices (what a caller answering searches between them waits at most). Each sample is a
 * fresh child process (`node --import tsx` on this file with --child), so no sample warms another.
 * `npm run bench -- --only build` runs it alone; `--json` prints it under `index_build`.
 */
import { spawnSync } from 'node:child_process';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BUILD_PHASES, ContactIndex } from '../src-main/core/directory/contact-index';
import type { DirectoryContact } from '../src-shared/contract';
import { generateDirectory } from './search-data';

const SIZE = 100_000;
const CHILDREN = 3;
const WARM_BUILDS = 5;

export interface IndexBuildFigures {
  contacts: number;
  /** Median over the fresh processes of their first build, ms (wall; CPU beside). */
  cold_ms: number;
  cold_cpu_ms: number;
  /** Median of the warm builds (after the first), over all processes, ms. */
  warm_ms: number;
  warm_cpu_ms: number;
  /** Heap + typed-array buffers the index holds after a collection, MB. */
  heap_mb: number;
  /** Garbage collection during the cold build: pauses, ms in all. */
  cold_gc_ms: number;
  /** The cold build's phases, ms (median over the processes), wall and CPU. */
  cold_phases_ms: Record<string, number>;
  cold_phases_cpu_ms: Record<string, number>;
  /** The gradual build with its default slices, warm: how many slices, the longest, ms (wall, CPU). */
  slices: number;
  longest_slice_ms: number;
  longest_slice_cpu_ms: number;
  /** The longest slice of a gradual build run first in a fresh process (cold), ms (wall, CPU). */
  cold_longest_slice_ms: number;
  cold_longest_slice_cpu_ms: number;
}

interface ChildFigures {
  cold: number;
  coldCpu: number;
  phases: number[];
  phasesCpu: number[];
  warm: number[];
  warmCpu: number[];
  heap: number;
  gc: number;
  slices: number;
  longestSlice: number;
  longestSliceCpu: number;
  coldLongestSlice: number;
  coldLongestSliceCpu: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round = (value: number) => Number(value.toFixed(1));

/** Runs the gradual build to its end, timing each slice (wall ms). */
function timeSlices(generator: Generator<void, ContactIndex>): {
  index: ContactIndex;
  slices: number[];
  cpu: number[];
} {
  const slices: number[] = [];
  const cpu: number[] = [];
  for (;;) {
    const since = process.cpuUsage();
    const started = performance.now();
    const step = generator.next();
    slices.push(performance.now() - started);
    cpu.push(cpuMs(since));
    if (step.done) return { index: step.value, slices, cpu };
  }
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** One fresh process's figures: `coldGradual` runs the default slices first instead. */
async function child(coldGradual: boolean): Promise<ChildFigures> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heapInUse = () => {
    gc();
    gc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return (heapUsed + arrayBuffers) / 2 ** 20;
  };
  const generated = generateDirectory(SIZE);
  const { priorities } = generated;
  // As the directory cache gives them at start: parsed from JSON (flat strings, not the
  // generator's concatenations).
  const contacts = JSON.parse(JSON.stringify(generated.contacts)) as DirectoryContact[];
  const options = { region: 'DE', priorityOf: (id: number) => priorities.get(id) };
  const before = heapInUse();
  const pauses: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  let coldLongestSlice = 0;
  let coldLongestSliceCpu = 0;
  if (coldGradual) {
    const coldSlices = timeSlices(ContactIndex.buildGradually(contacts, options));
    coldLongestSlice = Math.max(...coldSlices.slices);
    coldLongestSliceCpu = Math.max(...coldSlices.cpu);
  }
  const cpuBefore = process.cpuUsage();
  const coldStart = performance.now();
  // One slice a phase: the time between yields is each phase's.
  const cold = timeSlices(
    ContactIndex.buildGradually(contacts, { ...options, slice: Number.POSITIVE_INFINITY }),
  );
  const coldCpu = cpuMs(cpuBefore);
  const coldEnd = performance.now();
  // The collector's entries arrive a little later, on a turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  const gcMs = pauses
    .filter((pause) => pause.startTime >= coldStart && pause.startTime < coldEnd)
    .reduce((sum, pause) => sum + pause.duration, 0);
  const heap = heapInUse() - before;
  const warm: number[] = [];
  const warmCpu: number[] = [];
  for (let i = 0; i < WARM_BUILDS; i++) {
    const since = process.cpuUsage();
    const started = performance.now();
    ContactIndex.build(contacts, options);
    warm.push(performance.now() - started);
    warmCpu.push(cpuMs(since));
  }
  const gradual = timeSlices(ContactIndex.buildGradually(contacts, options));
  return {
    cold: cold.slices.reduce((sum, ms) => sum + ms, 0),
    coldCpu,
    phases: cold.slices,
    phasesCpu: cold.cpu,
    warm,
    warmCpu,
    heap,
    gc: gcMs,
    slices: gradual.slices.length,
    longestSlice: Math.max(...gradual.slices),
    longestSliceCpu: Math.max(...gradual.cpu),
    coldLongestSlice,
    coldLongestSliceCpu,
  };
}

/** Spawns fresh processes, prints the figures, returns them. */
export function indexBuild(): IndexBuildFigures {
  const runs: ChildFigures[] = [];
  for (let i = 0; i < CHILDREN + 1; i++) {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--child',
        i === CHILDREN ? 'gradual' : 'whole',
      ],
      { encoding: 'utf8', maxBuffer: 2 ** 24 },
    );
    if (run.status !== 0) throw new Error(`index build child failed: ${run.stderr}`);
    runs.push(JSON.parse(run.stdout.trim().split('\n').pop()!) as ChildFigures);
  }
  const whole = runs.slice(0, CHILDREN);
  const figures: IndexBuildFigures = {
    contacts: SIZE,
    cold_ms: round(median(whole.map((run) => run.cold))),
    cold_cpu_ms: round(median(whole.map((run) => run.coldCpu))),
    warm_ms: round(median(whole.flatMap((run) => run.warm))),
    warm_cpu_ms: round(median(whole.flatMap((run) => run.warmCpu))),
    heap_mb: round(median(whole.map((run) => run.heap))),
    cold_gc_ms: round(median(whole.map((run) => run.gc))),
    cold_phases_ms: Object.fromEntries(
      BUILD_PHASES.map((phase, i) => [phase, round(median(whole.map((run) => run.phases[i]!)))]),
    ),
    cold_phases_cpu_ms: Object.fromEntries(
      BUILD_PHASES.map((phase, i) => [phase, round(median(whole.map((run) => run.phasesCpu[i]!)))]),
    ),
    slices: runs[CHILDREN]!.slices,
    longest_slice_ms: round(median(whole.map((run) => run.longestSlice))),
    longest_slice_cpu_ms: round(median(whole.map((run) => run.longestSliceCpu))),
    cold_longest_slice_ms: round(runs[CHILDREN]!.coldLongestSlice),
    cold_longest_slice_cpu_ms: round(runs[CHILDREN]!.coldLongestSliceCpu),
  };
  console.log(
    `${SIZE} contacts; ${CHILDREN} fresh processes, the first build in each (cold), then ${WARM_BUILDS} more (warm)`,
  );
  console.log(
    `cold ${figures.cold_ms} ms (CPU ${figures.cold_cpu_ms} ms), warm ${figures.warm_ms} ms (CPU ${figures.warm_cpu_ms} ms); the index holds ${figures.heap_mb} MB (heap + typed arrays); collector pauses in the cold build ${figures.cold_gc_ms} ms`,
  );
  console.log(
    `cold phases: ${Object.entries(figures.cold_phases_ms)
      .map(([phase, ms]) => `${phase} ${ms}`)
      .join(', ')} ms; CPU ${Object.values(figures.cold_phases_cpu_ms).join(', ')} ms`,
  );
  console.log(
    `gradual build: ${figures.slices} slices, the longest ${figures.longest_slice_ms} ms warm (CPU ${figures.longest_slice_cpu_ms} ms), ${figures.cold_longest_slice_ms} ms cold (CPU ${figures.cold_longest_slice_cpu_ms} ms; the first build of a fresh process)`,
  );
  return figures;
}

if (process.argv.includes('--child')) {
  void child(process.argv.includes('gradual')).then((figures) => {
    console.log(JSON.stringify(figures));
  });
}
