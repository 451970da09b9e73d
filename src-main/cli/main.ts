/** The CLI's entry point: bin/callbar.mjs runs this (built into out/cli by `npm run build`). */
import { runCli } from './run-cli';

process.exitCode = await runCli(process.argv.slice(2));
