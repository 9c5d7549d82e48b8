/**
 * Voice on PostgreSQL, for a fleet (`databaseUrl`): spoken-term collections (`spoken_terms`, columns as in
 * `voice.sqlite`), so that every instance reads every collection. Own migrations (`glossa_voice_schema`) on
 * the spine's migration runner. Voice jobs are the server's runner jobs alone (job-support.ts).
 */
import type { ServiceContext } from '@glossa/server/feature';
import { migratePostgres, ServiceError } from '@glossa/server/feature';
import pg from 'pg';

/** A spoken-term collection (`spoken_terms`), as both backends return it (`voice.sqlite`, this store). */
export interface SpokenTermsRow {
  id: string;
  name: string;
  language: string;
  terms: string;
  created_at: string;
}

/**
 * Applied in order, one transaction each. Append only. Versions 1, 2 and 4 created and extended the job
 * tables of the versions before the job runner (`voice_jobs`, `voice_translate_jobs`,
 * `voice_translate_results`): no-ops now, kept so that a database's version still counts the same list.
 * A database whose job tables still hold rows is refused at start (index.ts).
 */
export const POSTGRES_VOICE_MIGRATIONS: readonly string[] = [
  'SELECT 1',
  'SELECT 1',
  // Spoken-term collections (spoken-terms.ts), as in voice.sqlite: every instance reads every account's.
  `
  CREATE TABLE spoken_terms (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    language TEXT NOT NULL,
    terms TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX spoken_terms_account ON spoken_terms(account_id, created_at);
  `,
  'SELECT 1',
];

type FleetVoiceStore = ReturnType<typeof createFleetVoiceStore>;

function createFleetVoiceStore(pool: pg.Pool) {
  return {
    // --- /v3/voice/spoken_terms (every query scoped by account) -------------------------------------
    async insertSpokenTerms(accountId: string, row: SpokenTermsRow): Promise<void> {
      await pool.query(
        'INSERT INTO spoken_terms (id, account_id, name, language, terms, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [row.id, accountId, row.name, row.language, row.terms, row.created_at],
      );
    },
    async listSpokenTerms(accountId: string): Promise<SpokenTermsRow[]> {
      const { rows } = await pool.query<SpokenTermsRow>(
        `SELECT id, name, language, terms, created_at FROM spoken_terms WHERE account_id = $1
         ORDER BY created_at, id`,
        [accountId],
      );
      return rows;
    },
    async findSpokenTerms(accountId: string, id: string): Promise<SpokenTermsRow | undefined> {
      const { rows } = await pool.query<SpokenTermsRow>(
        'SELECT id, name, language, terms, created_at FROM spoken_terms WHERE id = $1 AND account_id = $2',
        [id, accountId],
      );
      return rows[0];
    },
    async replaceSpokenTerms(
      accountId: string,
      id: string,
      fields: { name: string; language: string; terms: string },
    ): Promise<boolean> {
      const { rowCount } = await pool.query(
        'UPDATE spoken_terms SET name = $3, language = $4, terms = $5 WHERE id = $1 AND account_id = $2',
        [id, accountId, fields.name, fields.language, fields.terms],
      );
      return rowCount === 1;
    },
    async deleteSpokenTerms(accountId: string, id: string): Promise<boolean> {
      const { rowCount } = await pool.query('DELETE FROM spoken_terms WHERE id = $1 AND account_id = $2', [
        id,
        accountId,
      ]);
      return rowCount === 1;
    },
  };
}

// --- the fleet backend of a server ------------------------------------------------------------------

/** What the spoken-term routes use on a fleet: the store, once its migrations ran. */
export interface FleetVoice {
  store(): Promise<FleetVoiceStore>;
}

const fleets = new WeakMap<ServiceContext, FleetVoice>();

/**
 * Opens the fleet store of a server with `databaseUrl` (a pool, the migrations); the routes find it through
 * `fleetVoice(context)` at once and wait for its migrations. `close` ends the pool.
 */
export function openFleetVoice(
  url: string,
  context: ServiceContext,
  onError: (error: unknown) => void,
): { close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 4, application_name: 'glossa-voice' });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', () => {});
  // The migrations not applied yet (the spine's runner: one transaction each, locked).
  const ready = migratePostgres(pool, 'glossa_voice_schema', POSTGRES_VOICE_MIGRATIONS).then(() =>
    createFleetVoiceStore(pool),
  );
  ready.catch(onError);
  fleets.set(context, {
    async store() {
      try {
        return await ready;
      } catch {
        throw new ServiceError(
          503,
          'Voice jobs and spoken terms are not available: their database does not answer.',
        );
      }
    },
  });
  return {
    async close() {
      // Still registered: a late request fails (503 or 500), it never falls back to this instance's SQLite.
      await ready.catch(() => undefined);
      await pool.end().catch(() => {});
    },
  };
}

/** The fleet backend of a server with `databaseUrl`; undefined on SQLite (the embedded default). */
export function fleetVoice(context: ServiceContext): FleetVoice | undefined {
  return fleets.get(context);
}
