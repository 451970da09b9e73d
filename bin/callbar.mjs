#!/usr/bin/env node
// The callbar CLI: runs the TypeScript sources under Node through tsx.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src-main/cli/run-cli.ts');
process.exitCode = await runCli(process.argv.slice(2));
