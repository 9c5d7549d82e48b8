// A worker thread's entry from the TypeScript sources (tests, tsx; see entry.ts): registers tsx in the thread,
// then loads the module named by the last argument. Built packages run the compiled module itself.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[process.argv.length - 1]);
