/**
 * A process running the job runner with the test kind, to be killed (SIGKILL) by jobs-crash.test.ts:
 * `crash-child.ts sqlite <data dir>` or `crash-child.ts postgres <url>`. Prints `ready <owner id>` once its workers run.
 */
import { createJobRunner } from '../../src/jobs/job-runner.js';
import { createPostgresStorage } from '../../src/storage/postgres.js';
import { createSqliteStorage } from '../../src/storage/sqlite.js';
import { stepsKind } from './steps-kind.js';

const [kind, where] = process.argv.slice(2);
const storage =
  kind === 'postgres' ? await createPostgresStorage(where!, { poolSize: 4 }) : createSqliteStorage(where!);
const backend = storage.openJobBackend({ pollMs: 500 });
const runner = createJobRunner(backend, {
  concurrency: 2,
  sweepMs: 200,
  storage,
  onError: (error) => console.error(error),
});
runner.register(stepsKind());
await runner.start();
console.log(`ready ${backend.owner}`);
process.on('SIGTERM', () => {
  void runner
    .close()
    .then(() => storage.close())
    .then(() => process.exit(0));
});
