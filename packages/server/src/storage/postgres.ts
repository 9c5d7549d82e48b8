import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createPostgresJobBackend } from '../jobs/postgres-jobs.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';
import { transaction } from './postgres-resources.js';
import {
  type Account,
  type ApiKeyRecord,
  CHARACTER_PRODUCTS,
  type CustomTagUsageQuery,
  type CustomTagUsageRow,
  type EngineUsageRow,
  type NewAccount,
  type Reservation,
  type Storage,
  type UsageProduct,
  type UsageTotal,
} from './storage.js';

/** Key of the advisory lock that serializes migrations when several instances start at once. */
const MIGRATION_LOCK = 7_117_001;

export interface PostgresStorageOptions {
  /** Connections in this instance's pool. Default 10. */
  poolSize?: number;
}

/** A PostgreSQL storage and what fleet parts beside it need: its pool, and a check that it answers. */
export interface PostgresStorage extends Storage {
  readonly pool: pg.Pool;
  /** Resolves when the database answers a query (the `/ready` check). */
  ping(): Promise<void>;
}

interface AccountRow {
  id: string;
  plan: 'free' | 'paid';
  admin: boolean;
  detection_beta: boolean;
  quality_alpha: boolean;
  voice_jobs_alpha: boolean;
  memory_matches: boolean;
  character_limit: number;
  created_at: string;
}

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  plan: row.plan,
  admin: row.admin,
  detectionBeta: row.detection_beta,
  qualityAlpha: row.quality_alpha,
  voiceJobsAlpha: row.voice_jobs_alpha,
  memoryMatches: row.memory_matches,
  characterLimit: Number(row.character_limit),
  createdAt: row.created_at,
});

/** Applies the migrations not applied yet, one transaction each, under an advisory lock. */
export async function migratePostgres(
  pool: pg.Pool,
  table: string,
  migrations: readonly string[],
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS ${table} (version INTEGER NOT NULL)`);
      const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${table}`);
      let applied = rows[0]?.version ?? 0;
      if (rows.length === 0) await client.query(`INSERT INTO ${table} (version) VALUES (0)`);
      for (; applied < migrations.length; applied++) {
        await client.query('BEGIN');
        try {
          await client.query(migrations[applied]!);
          await client.query(`UPDATE ${table} SET version = $1`, [applied + 1]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/**
 * Opens a pool on `url` (`postgres://user:password@host:port/database`), applies the migrations, and
 * returns the storage every instance of a fleet shares. Unlike the SQLite store, usage is not written
 * behind: several processes write it, so each reservation is one statement (`glossa_reserve`, which holds
 * an advisory lock on the account for its duration) that sums the period and records the units only when
 * they fit. Two instances can never both take the last characters of a quota.
 */
export async function createPostgresStorage(
  url: string,
  options: PostgresStorageOptions = {},
): Promise<PostgresStorage> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', () => {});
  try {
    await migratePostgres(pool, 'glossa_schema', POSTGRES_MIGRATIONS);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const products = [...CHARACTER_PRODUCTS];
  /** One statement (`glossa_reserve`): the units when they fit in the period's limit; whether they did. */
  const reserve = async (db: pg.Pool | pg.PoolClient, reservation: Reservation): Promise<boolean> => {
    const { rows } = await db.query<{ reserved: boolean }>(
      'SELECT glossa_reserve($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) AS reserved',
      [
        reservation.accountId,
        reservation.keyId,
        reservation.product,
        reservation.day,
        reservation.customTag,
        reservation.units,
        reservation.periodFrom,
        reservation.periodTo,
        reservation.limit,
        products,
      ],
    );
    return rows[0]!.reserved;
  };
  return {
    pool,
    async ping() {
      await pool.query('SELECT 1');
    },
    async createAccount(account: NewAccount): Promise<Account> {
      const { rows } = await pool.query<AccountRow>(
        `INSERT INTO accounts (id, plan, admin, detection_beta, quality_alpha, voice_jobs_alpha, memory_matches, character_limit, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [
          account.id,
          account.plan,
          account.admin,
          account.detectionBeta,
          account.qualityAlpha,
          account.voiceJobsAlpha,
          account.memoryMatches,
          account.characterLimit,
          new Date().toISOString(),
        ],
      );
      return toAccount(rows[0]!);
    },
    async getAccount(id) {
      const { rows } = await pool.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]);
      return rows[0] && toAccount(rows[0]);
    },
    async addKey(accountId, keyHash): Promise<ApiKeyRecord> {
      const id = randomUUID();
      await pool.query(
        'INSERT INTO api_keys (id, account_id, key_hash, created_at) VALUES ($1, $2, $3, $4)',
        [id, accountId, keyHash, new Date().toISOString()],
      );
      return { id, accountId };
    },
    async findKeyByHash(keyHash) {
      const { rows } = await pool.query<AccountRow & { key_id: string }>(
        'SELECT k.id AS key_id, a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1',
        [keyHash],
      );
      const row = rows[0];
      return row && { key: { id: row.key_id, accountId: row.id }, account: toAccount(row) };
    },
    async revokeKey(keyHash) {
      const { rowCount } = await pool.query('DELETE FROM api_keys WHERE key_hash = $1', [keyHash]);
      return (rowCount ?? 0) > 0;
    },
    async getSetting(name) {
      const { rows } = await pool.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [
        name,
      ]);
      return rows[0]?.value;
    },
    async setSetting(name, value) {
      await pool.query(
        'INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
        [name, value],
      );
    },
    async claimSetting(name, value) {
      await pool.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
        name,
        value,
      ]);
      const { rows } = await pool.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [
        name,
      ]);
      return rows[0]!.value;
    },
    async deleteSettings(names) {
      await pool.query('DELETE FROM settings WHERE name = ANY($1::text[])', [names]);
    },
    async reserveCharacters(reservation) {
      const { operationId } = reservation;
      if (operationId === undefined) return reserve(pool, reservation);
      // Once per operation: its id and the units in one transaction (a concurrent one with the same id
      // waits for this one's commit, then finds the id).
      return transaction(pool, async (client) => {
        const { rowCount } = await client.query(
          'INSERT INTO usage_operations (id) VALUES ($1) ON CONFLICT DO NOTHING',
          [operationId],
        );
        if (rowCount !== 1) return true;
        const reserved = await reserve(client, reservation);
        if (!reserved) await client.query('DELETE FROM usage_operations WHERE id = $1', [operationId]);
        return reserved;
      });
    },
    async recordUsage(record) {
      await pool.query(
        `INSERT INTO usage (account_id, key_id, product, day, custom_tag, units) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account_id, day, product, key_id, custom_tag) DO UPDATE SET units = usage.units + excluded.units`,
        [record.accountId, record.keyId, record.product, record.day, record.customTag, record.units],
      );
    },
    async applyUsageOnce(operationId, record) {
      // One statement, so one transaction: the operation id and the units are written together, or neither.
      const { rowCount } = await pool.query(
        `WITH operation AS (
           INSERT INTO usage_operations (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id
         )
         INSERT INTO usage (account_id, key_id, product, day, custom_tag, units)
         SELECT $2, $3, $4, $5, $6, $7 FROM operation
         ON CONFLICT (account_id, day, product, key_id, custom_tag) DO UPDATE SET units = usage.units + excluded.units`,
        [
          operationId,
          record.accountId,
          record.keyId,
          record.product,
          record.day,
          record.customTag,
          record.units,
        ],
      );
      return rowCount === 1;
    },
    async commitUsage() {
      // Each record was written at once.
    },
    async pruneUsageOperations(prefix, appliedBefore) {
      const { rowCount } = await pool.query(
        'DELETE FROM usage_operations WHERE applied_at < $1 AND starts_with(id, $2)',
        [appliedBefore, prefix],
      );
      return rowCount ?? 0;
    },
    async usageTotals(accountId, keyId, from, to): Promise<UsageTotal[]> {
      const { rows } = await pool.query<{ product: UsageProduct; account_units: number; key_units: number }>(
        `SELECT product, SUM(units) AS account_units, SUM(CASE WHEN key_id = $1 THEN units ELSE 0 END) AS key_units
         FROM usage WHERE account_id = $2 AND day >= $3 AND day < $4 GROUP BY product`,
        [keyId, accountId, from, to],
      );
      return rows.map((row) => ({
        product: row.product,
        accountUnits: Number(row.account_units),
        keyUnits: Number(row.key_units),
      }));
    },
    async customTagUsage(query: CustomTagUsageQuery): Promise<CustomTagUsageRow[]> {
      const params = [query.accountId, query.from, query.to, query.limit, query.offset];
      const { rows } = await pool.query<{
        custom_tag: string;
        day?: string;
        product: UsageProduct;
        units: number;
      }>(
        query.byDay
          ? `WITH page AS (
               SELECT DISTINCT custom_tag, day FROM usage WHERE account_id = $1 AND custom_tag <> ''
                 AND day >= $2 AND day <= $3 ORDER BY custom_tag, day LIMIT $4 OFFSET $5)
             SELECT u.custom_tag, u.day, u.product, SUM(u.units) AS units FROM usage u
             JOIN page p ON p.custom_tag = u.custom_tag AND p.day = u.day
             WHERE u.account_id = $1 GROUP BY u.custom_tag, u.day, u.product ORDER BY u.custom_tag, u.day`
          : `SELECT custom_tag, product, SUM(units) AS units FROM usage
             WHERE custom_tag IN (
               SELECT DISTINCT custom_tag FROM usage WHERE account_id = $1 AND custom_tag <> ''
                 AND day >= $2 AND day <= $3 ORDER BY custom_tag LIMIT $4 OFFSET $5)
               AND account_id = $1 AND day >= $2 AND day <= $3
             GROUP BY custom_tag, product ORDER BY custom_tag`,
        params,
      );
      const grouped = new Map<string, { customTag: string; day?: string; units: Record<string, number> }>();
      for (const row of rows) {
        const id = `${row.custom_tag}\u0000${row.day ?? ''}`;
        let entry = grouped.get(id);
        if (!entry) {
          entry = { customTag: row.custom_tag, units: {} };
          if (row.day !== undefined) entry.day = row.day;
          grouped.set(id, entry);
        }
        entry.units[row.product] = Number(row.units);
      }
      return [...grouped.values()];
    },
    async recordEngineUsage(records) {
      const rows = records.filter(
        (record) => record.characters !== 0 || (record.tokensIn ?? 0) !== 0 || (record.tokensOut ?? 0) !== 0,
      );
      if (rows.length === 0) return;
      // One statement for every engine of the request, summed per key first (ON CONFLICT takes a key once).
      await pool.query(
        `INSERT INTO engine_usage (account_id, day, engine, characters, tokens_in, tokens_out)
         SELECT account_id, day, engine, SUM(characters), SUM(tokens_in), SUM(tokens_out)
         FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
           AS t(account_id, day, engine, characters, tokens_in, tokens_out)
         GROUP BY account_id, day, engine
         ON CONFLICT (account_id, day, engine) DO UPDATE SET characters = engine_usage.characters + excluded.characters,
           tokens_in = engine_usage.tokens_in + excluded.tokens_in,
           tokens_out = engine_usage.tokens_out + excluded.tokens_out`,
        [
          rows.map((row) => row.accountId),
          rows.map((row) => row.day),
          rows.map((row) => row.engine),
          rows.map((row) => Math.round(row.characters)),
          rows.map((row) => Math.round(row.tokensIn ?? 0)),
          rows.map((row) => Math.round(row.tokensOut ?? 0)),
        ],
      );
    },
    async engineUsage(query): Promise<EngineUsageRow[]> {
      const { rows } = await pool.query<{
        engine: string;
        day?: string;
        characters: string;
        tokens_in: string;
        tokens_out: string;
      }>(
        query.byDay
          ? `SELECT engine, day, characters, tokens_in, tokens_out FROM engine_usage
             WHERE account_id = $1 AND day >= $2 AND day <= $3 ORDER BY engine, day`
          : `SELECT engine, SUM(characters) AS characters, SUM(tokens_in) AS tokens_in, SUM(tokens_out) AS tokens_out
             FROM engine_usage WHERE account_id = $1 AND day >= $2 AND day <= $3 GROUP BY engine ORDER BY engine`,
        [query.accountId, query.from, query.to],
      );
      return rows.map((row) => ({
        engine: row.engine,
        ...(row.day === undefined ? {} : { day: row.day }),
        characters: Number(row.characters),
        tokensIn: Number(row.tokens_in),
        tokensOut: Number(row.tokens_out),
      }));
    },
    openJobBackend(options = {}) {
      return createPostgresJobBackend(url, pool, {
        onError: options.onError,
        // pg-boss polls at most every 500 ms.
        ...(options.pollMs === undefined
          ? {}
          : { pollingIntervalSeconds: Math.max(0.5, options.pollMs / 1000) }),
      });
    },
    async close() {
      await pool.end();
    },
  };
}
