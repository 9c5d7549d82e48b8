/**
 * A process running the job runner with the test kinds, to be killed (SIGKILL) by jobs-crash.test.ts:
 * `crash-child.ts sqlite <data dir>` or `crash-child.ts postgres <url>`. Prints `ready <owner id>` once its workers run.
 * A third argument `files` runs the kinds only (no sweep age for orphaned files); `submit <id>` submits a
 * `test/files` job of that id and dies (SIGKILL) once its files are stored, before its row commits.
 */
import { jobCrashPoints } from '../../src/jobs/job-backend.js';
import { createJobRunner } from '../../src/jobs/job-runner.js';
import { createPostgresStorage } from '../../src/storage/postgres.js';
import { createSqliteStorage } from '../../src/storage/sqlite.js';
import { filesKind, stepsKind } from './steps-kind.js';

const [kind, where, mode, id] = process.argv.slice(2);
const storage =
  kind === 'postgres' ? await createPostgresStorage(where!, { poolSize: 4 }) : createSqliteStorage(where!);
const backend = storage.openJobBackend({ pollMs: 500, ...(mode === 'files' ? { orphanFilesMs: 0 } : {}) });
const runner = createJobRunner(backend, {
  concurrency: mode === 'submit' ? 0 : 2,
  sweepMs: 200,
  storage,
  onError: (error) => console.error(error),
});
runner.register(stepsKind());
const files = runner.register(filesKind());
await runner.start();
console.log(`ready ${backend.owner}`);
if (mode === 'submit') {
  jobCrashPoints.filesStored = () => process.kill(process.pid, 'SIGKILL');
  await files.submit('alice', {}, { id: id!, files: { input: Buffer.from('never stored') } });
  console.error('the submit was not killed');
}
process.on('SIGTERM', () => {
  void runner
    .close()
    .then(() => storage.close())
    .then(() => process.exit(0));
});
