/**
 * The stores of a version before the runner held documents (a `documents` table with `document_chunks`:
 * `documents.sqlite` and the `documents/` folder in the data directory, or tables in PostgreSQL), retired at
 * start. Refunds such a version left owed (`refund_pending`: it marked a failed document, applied the refund
 * as the operation `documents/<id>/refund`, then cleared the mark; a stop between the two left the mark) are
 * applied with the same operation (so one it had applied is not applied again), then the store is deleted.
 * Its documents not finished have runner jobs of their own, which fail (and refund) for want of their upload
 * (document-job.ts `UPGRADED_MESSAGE`); its finished ones answer 404.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '@glossa/server/feature';
import Database from 'better-sqlite3';
import pg from 'pg';

interface Owed {
  id: string;
  account_id: string;
  key_id: string;
  billed_characters: number | string;
  usage_day: string;
}

const OWED = `SELECT id, account_id, key_id, billed_characters, usage_day FROM documents
  WHERE refund_pending = TRUE AND status = 'error'`;

async function refund(context: ServiceContext, owed: readonly Owed[]): Promise<void> {
  for (const row of owed)
    if (Number(row.billed_characters) > 0)
      await context.storage.applyUsageOnce(`documents/${row.id}/refund`, {
        accountId: row.account_id,
        keyId: row.key_id,
        product: 'translate',
        customTag: '',
        units: -Number(row.billed_characters),
        day: row.usage_day,
      });
}

/** Applies the owed refunds of the documents' old store, then deletes it; how many refunds were owed. */
export async function retireDocumentStores(context: ServiceContext): Promise<number> {
  const url = context.options.databaseUrl;
  if (url !== undefined) {
    const pool = new pg.Pool({ connectionString: url, max: 1, application_name: 'glossa-documents' });
    pool.on('error', () => {});
    try {
      const { rows } = await pool.query<{ found: string | null }>(`SELECT to_regclass('documents') AS found`);
      if (rows[0]?.found === null) return 0;
      const owed = (await pool.query<Owed>(OWED)).rows;
      await refund(context, owed);
      await pool.query('DROP TABLE IF EXISTS document_chunks, documents, glossa_documents_schema');
      return owed.length;
    } finally {
      await pool.end();
    }
  }
  const dataDir = context.options.dataDir;
  const file = join(dataDir, 'documents.sqlite');
  if (!existsSync(file)) return 0;
  const db = new Database(file);
  let owed: Owed[];
  try {
    const columns = db.prepare(`SELECT name FROM pragma_table_info('documents')`).all() as { name: string }[];
    owed = columns.some((column) => column.name === 'refund_pending')
      ? (db.prepare(OWED.replace('TRUE', '1')).all() as Owed[])
      : [];
  } finally {
    db.close();
  }
  await refund(context, owed);
  for (const name of ['documents.sqlite-wal', 'documents.sqlite-shm', 'documents.sqlite', 'documents'])
    rmSync(join(dataDir, name), { recursive: true, force: true });
  return owed.length;
}
