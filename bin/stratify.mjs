#!/usr/bin/env node
// Entry point of the `stratify` command: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../engine/cli/main.ts');
process.exitCode = await run(process.argv);
