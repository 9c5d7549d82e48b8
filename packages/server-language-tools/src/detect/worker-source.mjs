// The detection thread's entry from the TypeScript sources (tests, tsx): registers tsx in the thread (Node 20
// does not carry `--import` hooks into worker threads), then loads the real entry. Built packages run worker.js.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
