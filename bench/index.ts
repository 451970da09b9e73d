/**
 * `npm run bench`: runs every benchmark and prints its figures. Each benchmark compares Callbar's
 * implementation with alternatives in the same run; nothing here is asserted by the tests.
 */
import { cpus, totalmem } from 'node:os';
import { bundleSize } from './bundle-size';
import { cliStartup } from './cli-startup';
import { contactWalk } from './contact-walk';
import { dialTargetParse } from './dial-target';
import { sessionRefresh } from './session-refresh';

const benchmarks: { name: string; run: () => Promise<void> }[] = [
  { name: 'Walking every contact: page size', run: () => contactWalk() },
  { name: 'Renderer bundle size (production build)', run: () => bundleSize() },
  { name: 'Token refresh: answer→vault window and the profile lock', run: () => sessionRefresh() },
  { name: 'CLI start-up', run: () => cliStartup() },
  { name: 'Parsing a dial target', run: () => dialTargetParse() },
];

console.log('Callbar benchmarks');
console.log(`node ${process.version} on ${process.platform}/${process.arch}`);
console.log(
  `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
);
if (benchmarks.length === 0)
  console.log('No benchmarks yet: they arrive with the directory index.');
for (const benchmark of benchmarks) {
  console.log(`\n## ${benchmark.name}`);
  await benchmark.run();
}
