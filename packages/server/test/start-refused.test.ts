/**
 * A feature whose start refuses (`refuseEarlierJobStores` finding a job store of a version before the job
 * runner) makes `glossa-server` print why and exit 1, with no stack trace, and leaves the data as it was.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { refuseEarlierJobStores } from '../src/feature-api.js';
import { runCli } from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('a refused start prints the reason and exits 1; the earlier store is left as it was', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'glossa-refused-'));
  dirs.push(dataDir);
  mkdirSync(join(dataDir, 'old-jobs'));
  writeFileSync(join(dataDir, 'old-jobs', 'job-1'), 'audio');
  const err: string[] = [];
  const code = await runCli(
    ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir],
    { out: () => {}, err: (line) => err.push(line) },
    [
      {
        name: 'old-store',
        routes: [],
        start: async (context) => {
          await refuseEarlierJobStores(context, {
            tables: { file: 'old.sqlite', names: ['old_jobs'] },
            folders: ['old-jobs'],
          });
          return { close: async () => {} };
        },
      },
    ],
  );
  expect(code).toBe(1);
  expect(err).toHaveLength(1);
  expect(err[0]).toMatch(
    /^glossa-server: The data holds job stores .*files in .*old-jobs.*upgrade through Glossa commit e39d40c first/,
  );
  expect(readFileSync(join(dataDir, 'old-jobs', 'job-1'), 'utf8')).toBe('audio');
});
