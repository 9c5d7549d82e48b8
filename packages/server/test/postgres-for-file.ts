/**
 * For a test file whose checks run on SQLite and, where postgresql is installed, on PostgreSQL too: one
 * cluster started before the file's tests and stopped after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { hasPostgres, type PostgresCluster, startPostgres } from './services.js';

/**
 * Registers the cluster's start and stop; the function returned gives the cluster. Where postgresql is not
 * installed, the file skips its PostgreSQL tests (`hasPostgres`), and a warning says so, naming `skipped`.
 */
export function postgresForFile(skipped: string): () => PostgresCluster {
  let cluster: PostgresCluster | undefined;
  beforeAll(async () => {
    if (hasPostgres) cluster = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  if (!hasPostgres) console.warn(`Skipping ${skipped}: postgresql is not installed.`);
  return () => {
    if (!cluster) throw new Error('No PostgreSQL cluster: postgresql is not installed.');
    return cluster;
  };
}
