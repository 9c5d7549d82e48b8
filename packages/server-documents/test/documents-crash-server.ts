/** The crash tests' documents server: the harness's one crash script, documents on the real Apertium. */
import { join } from 'node:path';
import { startCrashServer } from '../../server/test/crash-harness.js';

/**
 * A documents server in a child process on `storage` (a data directory, and a PostgreSQL database for a
 * fleet), armed to die (SIGKILL) at `crashPoint` of document-job.ts; `modesDir` gives Apertium other modes.
 */
export const documentsCrashServer = (
  devKey: string,
  storage: { readonly dataDir: string; readonly databaseUrl?: string | undefined },
  crashPoint?: 'afterReserve' | 'afterFail' | 'afterChunk',
  modesDir?: string,
) =>
  startCrashServer({
    ...storage,
    devKey,
    feature: { module: join(import.meta.dirname, '../src/index.ts'), factory: 'documentsFeature' },
    apertium: modesDir !== undefined ? { modesDir } : {},
    // A dead instance's jobs are taken over within a fraction of a second (the tests kill several).
    server: { rateLimit: false, jobs: { sweepMs: 200, pollMs: 100 } },
    ...(crashPoint
      ? {
          crash: {
            module: join(import.meta.dirname, '../src/document-job.ts'),
            hooks: 'crashPoints',
            point: crashPoint,
          },
        }
      : {}),
  });
