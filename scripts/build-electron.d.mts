// Types of scripts/build-electron.mjs for the TypeScript tests that import it.
import type { BuildResult } from 'esbuild';

export declare const BUNDLES: readonly { entry: string; out: string; format: 'cjs' | 'esm' }[];
export declare function buildElectron(outdir?: string, root?: string): Promise<BuildResult<{ metafile: true }>[]>;
