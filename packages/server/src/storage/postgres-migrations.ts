/**
 * Schema migrations of the PostgreSQL store (the same tables as the SQLite one, `migrations.ts`), applied
 * in order inside one transaction each; the applied count is kept in `glossa_schema`. Append only.
 */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    plan TEXT NOT NULL CHECK (plan IN ('free', 'paid')),
    admin BOOLEAN NOT NULL DEFAULT FALSE,
    detection_beta BOOLEAN NOT NULL DEFAULT FALSE,
    quality_alpha BOOLEAN NOT NULL DEFAULT FALSE,
    voice_jobs_alpha BOOLEAN NOT NULL DEFAULT FALSE,
    memory_matches BOOLEAN NOT NULL DEFAULT FALSE,
    character_limit BIGINT NOT NULL,
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
    units DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day, product, key_id, custom_tag)
  );
  CREATE INDEX usage_account_tag ON usage(account_id, custom_tag, day);

  -- One statement per reservation: the account's advisory lock (held until the statement's transaction
  -- ends) orders concurrent reservations of one account across every instance; the sum of the period and
  -- the insert happen under it, so the limit is never overshot.
  CREATE FUNCTION glossa_reserve(
    p_account TEXT, p_key TEXT, p_product TEXT, p_day TEXT, p_tag TEXT, p_units DOUBLE PRECISION,
    p_from TEXT, p_to TEXT, p_limit DOUBLE PRECISION, p_products TEXT[]
  ) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
  DECLARE
    used DOUBLE PRECISION;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_account, 19));
    SELECT COALESCE(SUM(units), 0) INTO used FROM usage
      WHERE account_id = p_account AND day >= p_from AND day < p_to AND product = ANY (p_products);
    IF used + p_units > p_limit THEN
      RETURN FALSE;
    END IF;
    INSERT INTO usage (account_id, key_id, product, day, custom_tag, units)
      VALUES (p_account, p_key, p_product, p_day, p_tag, p_units)
      ON CONFLICT (account_id, day, product, key_id, custom_tag) DO UPDATE SET units = usage.units + excluded.units;
    RETURN TRUE;
  END;
  $$;
  `,
  // The operations `applyUsageOnce` applied (as in the SQLite store).
  `
  CREATE TABLE usage_operations (
    id TEXT PRIMARY KEY,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
  );
  `,
  // Operation ids are forgotten by age (`pruneUsageOperations`, from the features' periodic sweeps).
  `
  CREATE INDEX usage_operations_applied ON usage_operations(applied_at);
  `,
  // The job runner's jobs (src/jobs): every asynchronous feature's, next to the usage they pay for.
  `
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    seq BIGSERIAL NOT NULL,
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
  // Characters each engine was sent per account and day (as in the SQLite store).
  `
  CREATE TABLE engine_usage (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    day TEXT NOT NULL,
    engine TEXT NOT NULL,
    characters BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day, engine)
  );
  `,
  // The tokens LLM engines' calls used, per account, day and engine (as their answers count them).
  `
  ALTER TABLE engine_usage ADD COLUMN tokens_in BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE engine_usage ADD COLUMN tokens_out BIGINT NOT NULL DEFAULT 0;
  `,
  // The job runner's files (src/jobs): what a job's row cannot carry (uploads, requests, results), deleted with it.
  `
  CREATE TABLE job_files (
    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    data BYTEA NOT NULL,
    PRIMARY KEY (job_id, name)
  );
  `,
  // Quality evaluations keep their request and report as job files: their records go. A record unfinished
  // at the upgrade leaves a job without its request, which fails; a finished one's report is gone (a 404).
  `
  DROP TABLE IF EXISTS quality_jobs;
  DROP TABLE IF EXISTS glossa_quality_schema;
  `,
  // A job file as rows of at most 1 MiB (\`jobs/postgres-jobs.ts\`): written as an upload arrives and read back
  // one row at a time, so no whole file (nor its hex text) is ever held by a server. \`job_files\` names the
  // chunks of a file (\`file_id\`, \`chunks\`); chunks staged for a job whose row never committed belong to
  // no file and are removed by the sweep; those of a file deleted or replaced go with it (the triggers).
  // The files stored before are cut into chunks here.
  `
  CREATE TABLE job_file_chunks (
    file_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    data BYTEA NOT NULL,
    staged_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (file_id, seq)
  );
  ALTER TABLE job_files ADD COLUMN file_id TEXT;
  ALTER TABLE job_files ADD COLUMN chunks INTEGER;
  UPDATE job_files SET file_id = md5(job_id || '/' || name), chunks = (octet_length(data) + 1048575) / 1048576;
  INSERT INTO job_file_chunks (file_id, seq, data)
    SELECT f.file_id, s.seq, substring(f.data FROM s.seq * 1048576 + 1 FOR 1048576)
    FROM job_files f, generate_series(0, f.chunks - 1) AS s(seq);
  ALTER TABLE job_files DROP COLUMN data;
  ALTER TABLE job_files ALTER COLUMN file_id SET NOT NULL;
  ALTER TABLE job_files ALTER COLUMN chunks SET NOT NULL;
  CREATE UNIQUE INDEX job_files_file ON job_files(file_id);
  CREATE FUNCTION glossa_job_file_gone() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM job_file_chunks WHERE file_id = OLD.file_id;
    RETURN NULL;
  END;
  $$;
  CREATE TRIGGER job_files_deleted AFTER DELETE ON job_files
    FOR EACH ROW EXECUTE PROCEDURE glossa_job_file_gone();
  CREATE TRIGGER job_files_replaced AFTER UPDATE OF file_id ON job_files
    FOR EACH ROW WHEN (OLD.file_id IS DISTINCT FROM NEW.file_id) EXECUTE PROCEDURE glossa_job_file_gone();
  `,
];
