#!/usr/bin/env node
// The callbar CLI: runs the TypeScript sources under Node through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src-main/cli/main.ts');
