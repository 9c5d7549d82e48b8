/**
 * Spoken-term collections, per account, in their own SQLite file (`voice.sqlite` in the data directory, own
 * migrations), or on a fleet (`databaseUrl`) in PostgreSQL (fleet-store.ts: every instance reads every
 * collection), and their CRUD routes under /v3/voice/spoken_terms. Terms are kept as written: a session using
 * a collection rewrites a recognized term in the collection's spelling (see `terms.ts`).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalLanguage, ENDPOINTS, type SpokenTerms, type SpokenTermsInput } from '@glossa/protocol';
import type { ServiceContext } from '@glossa/server/feature';
import { badRequest, defineRoute, migrateSqlite, notFound, type Route } from '@glossa/server/feature';
import Database from 'better-sqlite3';
import { fleetVoice, type SpokenTermsRow } from './fleet-store.js';
import { TRANSCRIPTION_LANGUAGES } from './languages.js';

export const VOICE_DATABASE_FILE = 'voice.sqlite';
export const MAX_TERMS = 1000;
export const MAX_TERM_LENGTH = 100;

/**
 * Applied in order, one transaction each; the count is kept in `PRAGMA user_version`. Append only. Versions
 * 2 to 5 created and extended the job tables of the versions before the job runner (`voice_jobs`,
 * `voice_translate_jobs`): no-ops now, kept so that a database's version still counts the same list. A
 * database whose job tables still hold rows is refused at start (index.ts).
 */
export const VOICE_MIGRATIONS: readonly string[] = [
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
  'SELECT 1',
  'SELECT 1',
  'SELECT 1',
];

const databases = new WeakMap<ServiceContext, Database.Database>();

/** The voice database of a server, opened (and migrated) on first use. */
export function voiceDatabase(context: ServiceContext): Database.Database {
  let db = databases.get(context);
  if (db?.open) return db;
  mkdirSync(context.options.dataDir, { recursive: true, mode: 0o700 });
  db = new Database(join(context.options.dataDir, VOICE_DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  migrateSqlite(db, VOICE_MIGRATIONS);
  databases.set(context, db);
  return db;
}

/** Closes the voice database of a server (its apps call this on close). */
export function closeVoiceDatabase(context: ServiceContext): void {
  const db = databases.get(context);
  if (db?.open) db.close();
}

const toJson = (row: SpokenTermsRow): SpokenTerms => ({
  spoken_terms_id: row.id,
  name: row.name,
  language: row.language,
  terms: JSON.parse(row.terms) as string[],
  creation_time: row.created_at,
});

export async function findSpokenTerms(
  context: ServiceContext,
  accountId: string,
  id: string,
): Promise<SpokenTerms | undefined> {
  const fleet = fleetVoice(context);
  const row = fleet
    ? await (await fleet.store()).findSpokenTerms(accountId, id)
    : (voiceDatabase(context)
        .prepare('SELECT * FROM spoken_terms WHERE id = ? AND account_id = ?')
        .get(id, accountId) as SpokenTermsRow | undefined);
  return row && toJson(row);
}

function checkInput(input: SpokenTermsInput): { language: string; terms: string[] } {
  const language = canonicalLanguage(input.language) ?? input.language;
  if (!TRANSCRIPTION_LANGUAGES.includes(language)) {
    throw badRequest(`Spoken terms need a transcribed language: ${TRANSCRIPTION_LANGUAGES.join(', ')}.`);
  }
  if (input.terms.length > MAX_TERMS) throw badRequest(`A collection holds at most ${MAX_TERMS} terms.`);
  const terms = input.terms.map((term) => term.trim().replace(/\s+/g, ' '));
  const bad = terms.findIndex((term) => term === '' || [...term].length > MAX_TERM_LENGTH);
  if (bad >= 0) throw badRequest(`terms[${bad}] must be 1 to ${MAX_TERM_LENGTH} characters besides spaces.`);
  return { language, terms };
}

export const SPOKEN_TERMS_ROUTES: readonly Route[] = [
  defineRoute(ENDPOINTS.createSpokenTerms, async ({ body, caller, context }) => {
    const { language, terms } = checkInput(body);
    const row: SpokenTermsRow = {
      id: randomUUID(),
      name: body.name,
      language,
      terms: JSON.stringify(terms),
      created_at: new Date().toISOString(),
    };
    const fleet = fleetVoice(context);
    if (fleet) await (await fleet.store()).insertSpokenTerms(caller.account.id, row);
    else
      voiceDatabase(context)
        .prepare(
          'INSERT INTO spoken_terms (id, account_id, name, language, terms, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(row.id, caller.account.id, row.name, row.language, row.terms, row.created_at);
    return toJson(row);
  }),
  defineRoute(ENDPOINTS.listSpokenTerms, async ({ caller, context }) => {
    const fleet = fleetVoice(context);
    const rows = fleet
      ? await (await fleet.store()).listSpokenTerms(caller.account.id)
      : (voiceDatabase(context)
          .prepare('SELECT * FROM spoken_terms WHERE account_id = ? ORDER BY created_at, id')
          .all(caller.account.id) as SpokenTermsRow[]);
    return { spoken_terms: rows.map(toJson) };
  }),
  defineRoute(ENDPOINTS.getSpokenTerms, async ({ params, caller, context }) => {
    const found = await findSpokenTerms(context, caller.account.id, params.spoken_terms_id);
    if (!found) throw notFound(`Spoken-term collection ${params.spoken_terms_id} not found.`);
    return found;
  }),
  defineRoute(ENDPOINTS.replaceSpokenTerms, async ({ params, body, caller, context }) => {
    const { language, terms } = checkInput(body);
    const fleet = fleetVoice(context);
    const changed = fleet
      ? await (await fleet.store()).replaceSpokenTerms(caller.account.id, params.spoken_terms_id, {
          name: body.name,
          language,
          terms: JSON.stringify(terms),
        })
      : voiceDatabase(context)
          .prepare(
            'UPDATE spoken_terms SET name = ?, language = ?, terms = ? WHERE id = ? AND account_id = ?',
          )
          .run(body.name, language, JSON.stringify(terms), params.spoken_terms_id, caller.account.id)
          .changes > 0;
    if (!changed) throw notFound(`Spoken-term collection ${params.spoken_terms_id} not found.`);
    return findSpokenTerms(context, caller.account.id, params.spoken_terms_id);
  }),
  defineRoute(ENDPOINTS.deleteSpokenTerms, async ({ params, caller, context }) => {
    const fleet = fleetVoice(context);
    const changed = fleet
      ? await (await fleet.store()).deleteSpokenTerms(caller.account.id, params.spoken_terms_id)
      : voiceDatabase(context)
          .prepare('DELETE FROM spoken_terms WHERE id = ? AND account_id = ?')
          .run(params.spoken_terms_id, caller.account.id).changes > 0;
    if (!changed) throw notFound(`Spoken-term collection ${params.spoken_terms_id} not found.`);
    return undefined;
  }),
];
