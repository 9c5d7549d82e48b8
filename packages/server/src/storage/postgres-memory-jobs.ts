/**
 * How a memory import writes its memory on a fleet (`MemoryWriter`, memories/jobs.ts): the import's thread
 * parses the TMX and writes its segments and postings in PostgreSQL through a connection of its own
 * (`memories/import-thread.ts`, the pool's settings), off the event loop; the memory is made ready in a
 * transaction that first locks the runner's row of the job and checks the attempt still runs it, so an
 * attempt still running on an instance that lost its lease makes nothing ready (the attempt that took the
 * job over does).
 */
import type pg from 'pg';
import { JobSuperseded } from '../jobs/job-backend.js';
import { importOnThread } from '../memories/import-thread.js';
import type { MemoryWriter } from '../memories/jobs.js';
import type { PostgresMemoryStore } from './postgres-memories.js';
import { transaction } from './postgres-resources.js';

/** The pool's connection settings a thread can be handed (no function: a password callback stays here). */
function connectionOf(pool: pg.Pool): pg.ClientConfig {
  const { connectionString, host, port, user, password, database, ssl } = pool.options;
  const settings = { connectionString, host, port, user, password, database, ssl };
  return Object.fromEntries(
    Object.entries(settings).filter(([, value]) => value !== undefined && typeof value !== 'function'),
  );
}

export function postgresMemoryWriter(pool: pg.Pool, memories: PostgresMemoryStore): MemoryWriter {
  const connection = connectionOf(pool);
  return {
    begin: (accountId, name) => memories.begin(pool, accountId, name),
    write: (memoryId, content, signal) =>
      importOnThread({ kind: 'postgres', connection }, memoryId, content, signal),
    async finish(memoryId, summary, fence) {
      await transaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `SELECT 1 FROM jobs WHERE id = $1 AND attempt = $2 AND status = 'running' FOR UPDATE`,
          [fence.id, fence.attempt],
        );
        if (!rowCount) throw new JobSuperseded(fence.id);
        await memories.finish(client, memoryId, summary);
      });
    },
    discard: (memoryId) => memories.remove(memoryId),
  };
}
