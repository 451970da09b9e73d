/**
 * `npm run bench`: runs every benchmark and prints its figures. Each benchmark compares Callbar's
 * implementation with alternatives in the same run; nothing here is asserted by the tests.
 * `npm run bench -- --json` also prints every figure as one JSON object on the last line;
 * `npm run bench -- --only search` runs the benchmarks whose name holds "search" alone.
 * The speed a person feels (bench/felt-speed.ts, ~8 minutes: Chromium, two directory sizes) runs
 * last, its figures under `felt` in the JSON; `npm run bench -- --no-felt` leaves it out.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { browserExtension } from './browser-extension';
import { bundleSize } from './bundle-size';
import { cliStartup } from './cli-startup';
import { contactImport } from './contact-import';
import { contactWalk } from './contact-walk';
import { dialTargetParse } from './dial-target';
import { feltSpeed } from './felt-speed';
import { indexBuild } from './index-build';
import { REDUCED_RUN, relayBench } from './relay-bench';
import { searchEngines } from './search-engines';
import { sessionRefresh } from './session-refresh';
import { syncDirectory } from './sync-directory';

const json = process.argv.includes('--json');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1]?.toLowerCase() : undefined;
const felt = !process.argv.includes('--no-felt');
const figures: Record<string, unknown> = {};
const machine = {
  cores: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown CPU',
  memory_gib: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform}/${process.arch}`,
  /** Other work on the machine when the run started (1-minute load average). */
  load_average: Number(loadavg()[0]!.toFixed(1)),
};
figures.machine = machine;

/** `optIn`: left out by --no-felt (it takes minutes). */
const benchmarks: { name: string; run: () => Promise<void>; optIn?: boolean }[] = [
  {
    name: 'Search: a keystroke at 100,000 contacts',
    run: async () => {
      figures.search = await Promise.resolve(searchEngines());
    },
  },
  {
    name: 'Index build at 100,000 contacts: cold in a fresh process, warm, heap, slices',
    run: async () => {
      figures.index_build = await Promise.resolve(indexBuild());
    },
  },
  {
    name: 'Directory sync at the largest tenant',
    run: async () => {
      figures.sync = await syncDirectory();
    },
  },
  { name: 'Walking every contact: page size', run: () => contactWalk() },
  {
    name: 'Importing 5,000 contacts from a CSV',
    run: async () => {
      figures.contact_import = await contactImport();
    },
  },
  {
    name: "The window's JavaScript: at start and later (production build)",
    run: async () => {
      const size = await bundleSize();
      figures.window_start_js_kb = size.window_start_js_kb;
      figures.window = size;
    },
  },
  {
    name: 'Browser extension: content script weight, scan of 10,000 text nodes',
    run: async () => {
      Object.assign(figures, await browserExtension());
    },
  },
  { name: 'Token refresh: answer→vault window and the profile lock', run: () => sessionRefresh() },
  { name: 'CLI start-up', run: () => cliStartup() },
  { name: 'Parsing a dial target', run: () => dialTargetParse() },
  {
    // A reduced run; the full one is `npm run bench:relay`.
    name: 'Relay: light devices and Callbar cores through two nodes and Redis (reduced run)',
    run: async () => {
      figures.relay = await relayBench(REDUCED_RUN);
    },
  },
  {
    name: 'The speed a person feels (felt): keystroke to paint, start, memory',
    optIn: true,
    run: async () => {
      figures.felt = await feltSpeed();
    },
  },
];

console.log('Callbar benchmarks');
console.log(`node ${machine.node} on ${machine.platform}`);
console.log(
  `${machine.cores} × ${machine.cpu}, ${machine.memory_gib} GiB; load average ${machine.load_average} at the start`,
);
for (const benchmark of benchmarks.filter(({ name, optIn }) =>
  only ? name.toLowerCase().includes(only) : !optIn || felt,
)) {
  console.log(`\n## ${benchmark.name}`);
  await benchmark.run();
}
if (json) console.log(JSON.stringify(figures));
