// Writes docs/cli.md, the command line's reference, from the commands' own help texts.
// Usage: node --import tsx docs/scripts/cli-reference.ts
import { writeFileSync } from 'node:fs';
import { buildProgram } from '../../engine/cli/main.ts';
import { cliReference } from '../../engine/cli/reference.ts';

writeFileSync(new URL('../cli.md', import.meta.url), cliReference(buildProgram()));
