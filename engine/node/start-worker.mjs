// Entry of a Node worker thread that runs clustering starts. Node 20 cannot start a worker
// from a .ts file, so this registers tsx's loader and then imports the TypeScript module.
import { register } from 'tsx/esm/api';

register();
await import('./start-worker-main.ts');
