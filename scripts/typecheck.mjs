// `npm run typecheck`: the three TypeScript projects (the Node side with the tests, benches and
// scripts; the renderer; the browser extension), each checked whole by TypeScript 7's native
// compiler (the `typescript7` alias: the same language and strictness as the TypeScript 5.9 that
// vite, esbuild and typescript-eslint use, in about a third of the CPU time). Every project is
// checked even after one fails, and the run fails if any did.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const tsc = join(dirname(require.resolve('typescript7/package.json')), 'bin/tsc');
const projects = ['tsconfig.json', 'src-renderer/tsconfig.json', 'browser-extension/tsconfig.json'];

let failed = 0;
for (const project of projects) {
  const { status } = spawnSync(process.execPath, [tsc, '--noEmit', '-p', project], {
    stdio: 'inherit',
  });
  if (status !== 0) {
    failed += 1;
    console.error(`typecheck: ${project} has type errors (tsc exited ${status}).`);
  }
}
process.exit(failed === 0 ? 0 : 1);
