/**
 * Schema migrations of the SQLite store, applied in order inside one transaction each; the applied count
 * is kept in `PRAGMA user_version`. Append new migrations; never edit one that has shipped.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    plan TEXT NOT NULL CHECK (plan IN ('free', 'paid')),
    admin INTEGER NOT NULL DEFAULT 0,
    detection_beta INTEGER NOT NULL DEFAULT 0,
    quality_alpha INTEGER NOT NULL DEFAULT 0,
    memory_matches INTEGER NOT NULL DEFAULT 0,
    character_limit INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE INDEX api_keys_account ON api_keys(account_id);
  CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  CREATE TABLE usage (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key_id TEXT NOT NULL,
    product TEXT NOT NULL,
    day TEXT NOT NULL,
    custom_tag TEXT NOT NULL DEFAULT '',
    units REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day, product, key_id, custom_tag)
  ) WITHOUT ROWID;
  CREATE INDEX usage_account_tag ON usage(account_id, custom_tag, day);
  `,
  // Asynchronous voice jobs get their own alpha flag; they were gated on quality_alpha before, so the
  // accounts that had it keep their access.
  `
  ALTER TABLE accounts ADD COLUMN voice_jobs_alpha INTEGER NOT NULL DEFAULT 0;
  UPDATE accounts SET voice_jobs_alpha = quality_alpha;
  `,
  // The operations `applyUsageOnce` applied, so that applying one again is a no-op (a recovery after a
  // crash re-applies usage a job owes; storage.ts).
  `
  CREATE TABLE usage_operations (
    id TEXT PRIMARY KEY,
    applied_at TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // Operation ids are forgotten by age (`pruneUsageOperations`, from the features' periodic sweeps).
  `
  CREATE INDEX usage_operations_applied ON usage_operations(applied_at);
  `,
  // The job runner's jobs (src/jobs): every asynchronous feature's, next to the usage they pay for.
  `
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
    input TEXT NOT NULL,
    checkpoint TEXT,
    result TEXT,
    error TEXT,
    owner TEXT,
    attempt INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    run_after TEXT NOT NULL,
    claimed_at TEXT,
    expires_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX jobs_queue ON jobs(status, run_after);
  CREATE INDEX jobs_account ON jobs(account_id, status);
  CREATE INDEX jobs_account_claimed ON jobs(account_id, claimed_at);
  CREATE INDEX jobs_expires ON jobs(expires_at) WHERE expires_at IS NOT NULL;
  `,
  // Characters each engine was sent per account and day (what the providers behind the engines bill).
  `
  CREATE TABLE engine_usage (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    day TEXT NOT NULL,
    engine TEXT NOT NULL,
    characters INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day, engine)
  ) WITHOUT ROWID;
  `,
  // The tokens LLM engines' calls used, per account, day and engine (as their answers count them).
  `
  ALTER TABLE engine_usage ADD COLUMN tokens_in INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE engine_usage ADD COLUMN tokens_out INTEGER NOT NULL DEFAULT 0;
  `,
];
