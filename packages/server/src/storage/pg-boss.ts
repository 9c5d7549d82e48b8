/**
 * What the job runner's pg-boss queue (`jobs/postgres-jobs.ts`, the wake-ups of a fleet's workers) needs
 * beyond pg-boss itself: pg-boss's `create_queue` inserts the queue's row and then adds its partition's
 * foreign keys to that table, so instances creating queues at the same time on a fresh database can
 * deadlock; PostgreSQL then fails one of them (40P01). Retried (measured: 1 fleet start of 4 failed so).
 */
import type PgBoss from 'pg-boss';

/**
 * Creates the queue unless it exists, retrying a deadlock with another instance doing the same. A wake-up
 * is delivered up to 20 times, 2 s apart with backoff; one active for an hour is handed to another worker.
 */
export async function createBossQueue(boss: PgBoss, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      if (await boss.getQueue(name)) return;
      await boss.createQueue(name, {
        name,
        policy: 'standard',
        retryLimit: 20,
        retryDelay: 2,
        retryBackoff: true,
        expireInSeconds: 3600,
      });
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}
