/** The CLI's entry point: bin/callbar.mjs runs this (built into out/cli by `npm run build`). */
import { setFlagsFromString } from 'node:v8';
import { runCli } from './run-cli';

// A `callbar` command lives for half a second. Node's fetch parses HTTP with undici's llhttp,
// a WebAssembly module: V8 compiles it with Liftoff, then optimizes its parser with TurboFan on a
// worker thread, about 150 ms of CPU that the process then waits for before it may exit, for a
// parser that reads a few kilobytes. Liftoff's code is kept: a signed-in command's CPU 551 → 409
// ms, its life 539 → 407 ms (docs/benchmarks.md). Set before the first request compiles the module.
setFlagsFromString('--liftoff-only');

process.exitCode = await runCli(process.argv.slice(2));
