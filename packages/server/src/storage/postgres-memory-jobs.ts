/**
 * How a memory import writes its memory on a fleet (`MemoryWriter`, memories/jobs.ts): batches in
 * PostgreSQL, their postings held per memory until the end; the memory is made ready in a transaction that
 * first locks the runner's row of the job and checks the attempt still runs it, so an attempt still running
 * on an instance that lost its lease makes nothing ready (the attempt that took the job over does).
 */
import type pg from 'pg';
import { JobSuperseded } from '../jobs/job-backend.js';
import { writeInBatches } from '../memories/import-thread.js';
import type { MemoryWriter } from '../memories/jobs.js';
import { PendingPostings } from '../memories/postings.js';
import type { PostgresMemoryStore } from './postgres-memories.js';
import { transaction } from './postgres-resources.js';

export function postgresMemoryWriter(pool: pg.Pool, memories: PostgresMemoryStore): MemoryWriter {
  const postings = new Map<string, PendingPostings>();
  const postingsOf = (memoryId: string) =>
    postings.get(memoryId) ?? postings.set(memoryId, new PendingPostings()).get(memoryId)!;
  return {
    begin: (accountId, name) => memories.begin(pool, accountId, name),
    write: writeInBatches((memoryId, batch) => memories.addBatch(memoryId, batch, postingsOf(memoryId))),
    async finish(memoryId, summary, fence) {
      await transaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `SELECT 1 FROM jobs WHERE id = $1 AND attempt = $2 AND status = 'running' FOR UPDATE`,
          [fence.id, fence.attempt],
        );
        if (!rowCount) throw new JobSuperseded(fence.id);
        await memories.finish(client, memoryId, summary, postingsOf(memoryId));
      });
      postings.delete(memoryId);
    },
    async discard(memoryId) {
      postings.delete(memoryId);
      await memories.remove(memoryId);
    },
  };
}
