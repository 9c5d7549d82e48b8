// Worker entry used inside the workspace, where core runs from its TypeScript sources: registers tsx in
// this thread (Node 20 does not carry `--import` hooks into worker threads), then loads the real entry.
import { register } from 'tsx/esm/api';

register();
const { default: runTask } = await import('./worker.ts');
export default runTask;
