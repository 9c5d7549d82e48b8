import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteJobBackend } from '../jobs/sqlite-jobs.js';
import { MIGRATIONS } from './migrations.js';
import { migrateSqlite } from './sqlite-migrate.js';
import {
  type Account,
  type ApiKeyRecord,
  CHARACTER_PRODUCTS,
  type CustomTagUsageQuery,
  type CustomTagUsageRow,
  type EngineUsageRecord,
  type EngineUsageRow,
  type NewAccount,
  type Storage,
  type UsageProduct,
  type UsageRecord,
  type UsageTotal,
} from './storage.js';

/** The one database file in the data directory. */
export const DATABASE_FILE = 'glossa.sqlite';

/** How long usage may wait in memory before it is committed (see `createSqliteStorage`). */
const USAGE_FLUSH_MS = 100;

interface AccountRow {
  id: string;
  plan: 'free' | 'paid';
  admin: number;
  detection_beta: number;
  quality_alpha: number;
  voice_jobs_alpha: number;
  memory_matches: number;
  character_limit: number;
  created_at: string;
}

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  plan: row.plan,
  admin: row.admin === 1,
  detectionBeta: row.detection_beta === 1,
  qualityAlpha: row.quality_alpha === 1,
  voiceJobsAlpha: row.voice_jobs_alpha === 1,
  memoryMatches: row.memory_matches === 1,
  characterLimit: row.character_limit,
  createdAt: row.created_at,
});

/** Opens (creating and migrating as needed) `<dataDir>/glossa.sqlite` in WAL mode. */
export function createSqliteStorage(dataDir: string): Storage {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(join(dataDir, DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrateSqlite(db, MIGRATIONS);

  const statements = {
    insertAccount: db.prepare(
      `INSERT INTO accounts (id, plan, admin, detection_beta, quality_alpha, voice_jobs_alpha, memory_matches, character_limit, created_at)
       VALUES (@id, @plan, @admin, @detection_beta, @quality_alpha, @voice_jobs_alpha, @memory_matches, @character_limit, @created_at)`,
    ),
    getAccount: db.prepare('SELECT * FROM accounts WHERE id = ?'),
    insertKey: db.prepare('INSERT INTO api_keys (id, account_id, key_hash, created_at) VALUES (?, ?, ?, ?)'),
    findKey: db.prepare(
      `SELECT k.id AS key_id, a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ?`,
    ),
    claimSetting: db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO NOTHING'),
    deleteKey: db.prepare('DELETE FROM api_keys WHERE key_hash = ?'),
    deleteSetting: db.prepare('DELETE FROM settings WHERE name = ?'),
    getSetting: db.prepare('SELECT value FROM settings WHERE name = ?'),
    setSetting: db.prepare(
      'INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value',
    ),
    addUsage: db.prepare(
      `INSERT INTO usage (account_id, key_id, product, day, custom_tag, units)
       VALUES (@accountId, @keyId, @product, @day, @customTag, @units)
       ON CONFLICT(account_id, day, product, key_id, custom_tag) DO UPDATE SET units = units + excluded.units`,
    ),
    addEngineUsage: db.prepare(
      `INSERT INTO engine_usage (account_id, day, engine, characters, tokens_in, tokens_out)
       VALUES (@accountId, @day, @engine, @characters, @tokensIn, @tokensOut)
       ON CONFLICT(account_id, day, engine) DO UPDATE SET characters = characters + excluded.characters,
         tokens_in = tokens_in + excluded.tokens_in, tokens_out = tokens_out + excluded.tokens_out`,
    ),
    enginesByPeriod: db.prepare(
      `SELECT engine, SUM(characters) AS characters, SUM(tokens_in) AS tokensIn, SUM(tokens_out) AS tokensOut
       FROM engine_usage
       WHERE account_id = @accountId AND day >= @from AND day <= @to GROUP BY engine ORDER BY engine`,
    ),
    enginesByDay: db.prepare(
      `SELECT engine, day, characters, tokens_in AS tokensIn, tokens_out AS tokensOut FROM engine_usage
       WHERE account_id = @accountId AND day >= @from AND day <= @to ORDER BY engine, day`,
    ),
    hasOperation: db.prepare('SELECT 1 FROM usage_operations WHERE id = ?'),
    pruneOperations: db.prepare(
      'DELETE FROM usage_operations WHERE applied_at < ? AND substr(id, 1, length(?)) = ?',
    ),
    addOperation: db.prepare(
      'INSERT INTO usage_operations (id, applied_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
    ),
    periodCharacters: db.prepare(
      `SELECT COALESCE(SUM(units), 0) AS units FROM usage
       WHERE account_id = ? AND day >= ? AND day < ? AND product IN (${CHARACTER_PRODUCTS.map(() => '?').join(', ')})`,
    ),
    totals: db.prepare(
      `SELECT product, SUM(units) AS account_units, SUM(CASE WHEN key_id = ? THEN units ELSE 0 END) AS key_units
       FROM usage WHERE account_id = ? AND day >= ? AND day < ? GROUP BY product`,
    ),
    tagsByPeriod: db.prepare(
      `SELECT custom_tag, product, SUM(units) AS units FROM usage
       WHERE custom_tag IN (
         SELECT DISTINCT custom_tag FROM usage WHERE account_id = @accountId AND custom_tag <> ''
           AND day >= @from AND day <= @to ORDER BY custom_tag LIMIT @limit OFFSET @offset)
         AND account_id = @accountId AND day >= @from AND day <= @to
       GROUP BY custom_tag, product ORDER BY custom_tag`,
    ),
    tagsByDay: db.prepare(
      `WITH page AS (
         SELECT DISTINCT custom_tag, day FROM usage WHERE account_id = @accountId AND custom_tag <> ''
           AND day >= @from AND day <= @to ORDER BY custom_tag, day LIMIT @limit OFFSET @offset)
       SELECT u.custom_tag, u.day, u.product, SUM(u.units) AS units FROM usage u
       JOIN page p ON p.custom_tag = u.custom_tag AND p.day = u.day
       WHERE u.account_id = @accountId GROUP BY u.custom_tag, u.day, u.product ORDER BY u.custom_tag, u.day`,
    ),
  };

  /**
   * Usage is written behind: each record is checked against an in-memory total of the account's period
   * (read from the database once, then kept by this process, the only writer of usage) and added to a
   * pending row (records of one account, key, product, day and tag are summed); the pending rows are
   * committed in one transaction every USAGE_FLUSH_MS, before usage is read, and on close. Quotas stay
   * exact (they are decided on the in-memory totals); a crash of the process loses at most the usage of
   * its last USAGE_FLUSH_MS, never a translation. A commit per request turn, as before, cost about a tenth
   * of a small translate request's CPU (docs/benchmarks.md). When a commit fails, its rows stay pending and
   * the totals are dropped, so the next reservation retries the commit and fails with its error: requests
   * are never served unmetered. `commitUsage` commits at once; so does `applyUsageOnce`, the usage
   * pending before it first, then its units with its operation id (its caller then forgets what it owed).
   */
  const periodTotals = new Map<string, number>();
  const pending = new Map<string, UsageRow>();
  /** Engine usage waiting for the next commit, summed per account, day and engine. */
  const pendingEngines = new Map<
    string,
    {
      accountId: string;
      day: string;
      engine: string;
      characters: number;
      tokensIn: number;
      tokensOut: number;
    }
  >();
  let flushTimer: NodeJS.Timeout | undefined;
  const commit = db.transaction((rows: Iterable<UsageRow>) => {
    for (const row of rows) statements.addUsage.run(row);
    for (const row of pendingEngines.values()) statements.addEngineUsage.run(row);
  });
  /** One operation's units, committed at once with its id (`applyUsageOnce`); false when the id was there. */
  const applyOnce = db.transaction((operationId: string, row: UsageRow): boolean => {
    if (statements.addOperation.run(operationId, new Date().toISOString()).changes === 0) return false;
    statements.addUsage.run(row);
    return true;
  });
  const flush = () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending.size === 0 && pendingEngines.size === 0) return;
    try {
      commit.immediate(pending.values());
      pending.clear();
      pendingEngines.clear();
    } catch (error) {
      periodTotals.clear();
      schedule();
      throw error;
    }
  };
  const schedule = () => {
    // unref: pending usage does not keep the process alive; `close()` writes it.
    flushTimer ??= setTimeout(() => {
      try {
        flush();
      } catch {
        // Retried by the next flush; the next reservation reports the error (the totals were dropped).
      }
    }, USAGE_FLUSH_MS).unref();
  };
  const addPending = (record: UsageRecord) => {
    const id = `${record.accountId}\u0000${record.keyId}\u0000${record.product}\u0000${record.day}\u0000${record.customTag}`;
    const row = pending.get(id);
    if (row) row.units += record.units;
    else pending.set(id, usageRow(record));
    schedule();
  };
  const addToTotal = (record: UsageRecord, periodFrom: string, periodTo: string, limit: number): boolean => {
    const id = `${record.accountId}\u0000${periodFrom}\u0000${periodTo}`;
    let used = periodTotals.get(id);
    if (used === undefined) {
      flush();
      used = (
        statements.periodCharacters.get(record.accountId, periodFrom, periodTo, ...CHARACTER_PRODUCTS) as {
          units: number;
        }
      ).units;
    }
    if (used + record.units > limit) return false;
    periodTotals.set(id, used + record.units);
    return true;
  };

  return {
    async createAccount(account: NewAccount): Promise<Account> {
      const row: AccountRow = {
        id: account.id,
        plan: account.plan,
        admin: Number(account.admin),
        detection_beta: Number(account.detectionBeta),
        quality_alpha: Number(account.qualityAlpha),
        voice_jobs_alpha: Number(account.voiceJobsAlpha),
        memory_matches: Number(account.memoryMatches),
        character_limit: account.characterLimit,
        created_at: new Date().toISOString(),
      };
      statements.insertAccount.run(row);
      return toAccount(row);
    },
    async getAccount(id) {
      const row = statements.getAccount.get(id) as AccountRow | undefined;
      return row && toAccount(row);
    },
    async addKey(accountId, keyHash): Promise<ApiKeyRecord> {
      const id = randomUUID();
      statements.insertKey.run(id, accountId, keyHash, new Date().toISOString());
      return { id, accountId };
    },
    async findKeyByHash(keyHash) {
      const row = statements.findKey.get(keyHash) as (AccountRow & { key_id: string }) | undefined;
      return row && { key: { id: row.key_id, accountId: row.id }, account: toAccount(row) };
    },
    async revokeKey(keyHash) {
      return statements.deleteKey.run(keyHash).changes > 0;
    },
    async getSetting(name) {
      return (statements.getSetting.get(name) as { value: string } | undefined)?.value;
    },
    async setSetting(name, value) {
      statements.setSetting.run(name, value);
    },
    async claimSetting(name, value) {
      statements.claimSetting.run(name, value);
      return (statements.getSetting.get(name) as { value: string }).value;
    },
    async deleteSettings(names) {
      db.transaction(() => {
        for (const name of names) statements.deleteSetting.run(name);
      })();
    },
    async reserveCharacters(reservation) {
      const { operationId } = reservation;
      if (operationId !== undefined && statements.hasOperation.get(operationId)) return true;
      if (!addToTotal(reservation, reservation.periodFrom, reservation.periodTo, reservation.limit))
        return false;
      if (operationId === undefined) addPending(reservation);
      else {
        // Once per operation: committed at once with its id (and the usage pending before it).
        try {
          flush();
          applyOnce.immediate(operationId, usageRow(reservation));
        } catch (error) {
          periodTotals.clear();
          throw error;
        }
      }
      return true;
    },
    async recordUsage(record) {
      // A refund or an uncapped record: the period totals learn it on their next read from the database.
      periodTotals.clear();
      addPending(record);
    },
    async applyUsageOnce(operationId, record) {
      // Not written behind: the caller clears what it owes once this resolves, so it must be committed;
      // and the usage recorded before it first (a refund must never outlive the reservation it refunds).
      flush();
      const applied = applyOnce.immediate(operationId, usageRow(record));
      if (applied && CHARACTER_PRODUCTS.includes(record.product)) periodTotals.clear();
      return applied;
    },
    async commitUsage() {
      flush();
    },
    async pruneUsageOperations(prefix, appliedBefore) {
      return statements.pruneOperations.run(appliedBefore.toISOString(), prefix, prefix).changes;
    },
    async usageTotals(accountId, keyId, from, to): Promise<UsageTotal[]> {
      flush();
      const rows = statements.totals.all(keyId, accountId, from, to) as {
        product: UsageProduct;
        account_units: number;
        key_units: number;
      }[];
      return rows.map((row) => ({
        product: row.product,
        accountUnits: row.account_units,
        keyUnits: row.key_units,
      }));
    },
    async customTagUsage(query: CustomTagUsageQuery): Promise<CustomTagUsageRow[]> {
      flush();
      const params = {
        accountId: query.accountId,
        from: query.from,
        to: query.to,
        limit: query.limit,
        offset: query.offset,
      };
      const rows = (query.byDay ? statements.tagsByDay : statements.tagsByPeriod).all(params) as {
        custom_tag: string;
        day?: string;
        product: UsageProduct;
        units: number;
      }[];
      const grouped = new Map<string, { customTag: string; day?: string; units: Record<string, number> }>();
      for (const row of rows) {
        const id = `${row.custom_tag}\u0000${row.day ?? ''}`;
        let entry = grouped.get(id);
        if (!entry) {
          entry = { customTag: row.custom_tag, units: {} };
          if (row.day !== undefined) entry.day = row.day;
          grouped.set(id, entry);
        }
        entry.units[row.product] = row.units;
      }
      return [...grouped.values()];
    },
    async recordEngineUsage(records: readonly EngineUsageRecord[]) {
      for (const record of records) {
        const tokensIn = record.tokensIn ?? 0;
        const tokensOut = record.tokensOut ?? 0;
        if (record.characters === 0 && tokensIn === 0 && tokensOut === 0) continue;
        const id = `${record.accountId}\u0000${record.day}\u0000${record.engine}`;
        const row = pendingEngines.get(id);
        if (row) {
          row.characters += record.characters;
          row.tokensIn += tokensIn;
          row.tokensOut += tokensOut;
        } else
          pendingEngines.set(id, {
            accountId: record.accountId,
            day: record.day,
            engine: record.engine,
            characters: record.characters,
            tokensIn,
            tokensOut,
          });
      }
      if (pendingEngines.size > 0) schedule();
    },
    async engineUsage(query): Promise<EngineUsageRow[]> {
      flush();
      const params = { accountId: query.accountId, from: query.from, to: query.to };
      return query.byDay
        ? (statements.enginesByDay.all(params) as EngineUsageRow[])
        : (statements.enginesByPeriod.all(params) as EngineUsageRow[]);
    },
    openJobBackend(options = {}) {
      // Job usage is applied in the jobs' transactions, not through the totals: they learn it from the database.
      return createSqliteJobBackend(db, {
        onCharacterUsage: () => periodTotals.clear(),
        ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
        ...(options.orphanFilesMs === undefined ? {} : { orphanFilesMs: options.orphanFilesMs }),
        filesDir: join(dataDir, 'jobs'),
      });
    },
    async close() {
      try {
        flush();
      } finally {
        if (db.open) db.close();
      }
    },
  };
}

/** A pending row of the usage table: a record's fields, its units summed as more records of the row arrive. */
interface UsageRow {
  accountId: string;
  keyId: string;
  product: UsageProduct;
  day: string;
  customTag: string;
  units: number;
}

function usageRow(record: UsageRecord): UsageRow {
  return {
    accountId: record.accountId,
    keyId: record.keyId,
    product: record.product,
    day: record.day,
    customTag: record.customTag,
    units: record.units,
  };
}
