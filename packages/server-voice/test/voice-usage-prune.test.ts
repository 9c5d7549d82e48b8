/**
 * The voice jobs' usage operation ids (`voice/<table>/<id>/minutes`, the spine's `usage_operations`) are
 * forgotten once nothing can apply them again (usage.ts `pruneOperations`): those recorded a day before
 * the oldest job that still owes its minutes, or a day ago when none does. A server killed right after a
 * job's minutes were applied (its row still owing them) is started again on storage that also holds old
 * ids of jobs settled long ago: the old ids go, the recent one stays and still prevents the minutes counted
 * twice. An old id whose job still owes its minutes is kept, whatever its age, until they are settled.
 * On SQLite (the data directory: each job loop's start, per table) and on PostgreSQL (a real cluster: each
 * instance's start and lease checks). Real pocketsphinx, ffmpeg, Apertium and flite speech.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPostgresStorage,
  createSqliteStorage,
  type GlossaServer,
  type Storage,
  startServer,
} from '@glossa/server';
import type { ServiceContext } from '@glossa/server/feature';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrashServer } from '../../server/test/crash-server.js';
import { postgresForFile } from '../../server/test/postgres-for-file.js';
import { hasPostgres } from '../../server/test/services.js';
import { createFleetVoiceStore } from '../src/fleet-store.js';
import { voiceFeature } from '../src/index.js';
import { pruneOperations, sqliteOldestOwed } from '../src/usage.js';
import { fliteWav, uploadVoiceJob } from './voice-helpers.js';

const SCRIPT = join(import.meta.dirname, 'crash-serve.ts');
const DEV_KEY = 'voice-usage-prune-dev-key-0123456';
const REFERENCE = 'please send me the report before the meeting tomorrow morning.';
const DAY = 24 * 60 * 60 * 1000;
/** Ids of jobs settled long ago, recorded three days (or more) ago. */
const GONE = 2000;
/** Seconds of 16 kHz s16le audio in a flite WAV (44-byte header). */
const secondsOf = (wav: Buffer) => (wav.length - 44) / 32_000;

const dir = mkdtempSync(join(tmpdir(), 'glossa-voice-prune-'));
let wav: Buffer;
const cluster = postgresForFile('the PostgreSQL voice prune tests');
beforeAll(() => {
  wav = fliteWav(REFERENCE);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Storages {
  readonly dataDir: string;
  readonly databaseUrl?: string;
}

/** SQL on the storage behind a server, whichever backend: `?` placeholders on SQLite, `$n` on PostgreSQL. */
async function query(
  storage: Storages,
  sql: { sqlite: string; postgres: string },
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  if (storage.databaseUrl) {
    const client = new pg.Client({ connectionString: storage.databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql.postgres, params)).rows;
    } finally {
      await client.end();
    }
  }
  // The spine's tables are in glossa.sqlite, the voice jobs in voice.sqlite.
  const file = /\busage_operations\b/.test(sql.sqlite) ? 'glossa.sqlite' : 'voice.sqlite';
  const db = new Database(join(storage.dataDir, file));
  db.pragma('busy_timeout = 5000');
  try {
    const statement = db.prepare(sql.sqlite);
    if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
    statement.run(...params);
    return [];
  } finally {
    db.close();
  }
}

const count = async (storage: Storages, prefix: string) =>
  Number(
    (
      await query(
        storage,
        {
          sqlite: 'SELECT COUNT(*) AS n FROM usage_operations WHERE substr(id, 1, ?) = ?',
          postgres: 'SELECT COUNT(*) AS n FROM usage_operations WHERE left(id, $1) = $2',
        },
        [prefix.length, prefix],
      )
    )[0]!.n,
  );

const hasId = async (storage: Storages, id: string) =>
  (
    await query(
      storage,
      {
        sqlite: 'SELECT 1 FROM usage_operations WHERE id = ?',
        postgres: 'SELECT 1 FROM usage_operations WHERE id = $1',
      },
      [id],
    )
  ).length === 1;

const owes = async (storage: Storages, id: string) =>
  (
    await query(
      storage,
      {
        sqlite: 'SELECT 1 FROM voice_jobs WHERE id = ? AND usage_pending IS NOT NULL',
        postgres: 'SELECT 1 FROM voice_jobs WHERE id = $1 AND usage_pending IS NOT NULL',
      },
      [id],
    )
  ).length === 1;

/** Adds `GONE` ids of voice jobs settled long ago (and one of another prefix), recorded `ago` ms ago. */
async function seedGone(storage: Storages, ago: number): Promise<void> {
  const at = new Date(Date.now() - ago).toISOString();
  if (storage.databaseUrl) {
    await query(
      storage,
      {
        sqlite: '',
        postgres: `INSERT INTO usage_operations (id, applied_at)
                   SELECT 'voice/voice_jobs/gone-' || n || '/minutes', $2::timestamptz FROM generate_series(0, $1 - 1) AS n
                   UNION ALL SELECT 'documents/other/refund', $2::timestamptz`,
      },
      [GONE, at],
    );
    return;
  }
  const db = new Database(join(storage.dataDir, 'glossa.sqlite'));
  try {
    const insert = db.prepare('INSERT INTO usage_operations (id, applied_at) VALUES (?, ?)');
    db.transaction(() => {
      for (let n = 0; n < GONE; n++) insert.run(`voice/voice_jobs/gone-${n}/minutes`, at);
      insert.run('documents/other/refund', at);
    })();
  } finally {
    db.close();
  }
}

/**
 * A server killed right after a job's minutes were applied, before its row stopped owing them: the job's
 * id, recorded, and its row owing the minutes.
 */
async function crashAfterUsage(storage: Storages): Promise<string> {
  const { url, exited, output } = await startCrashServer(SCRIPT, {
    ...storage,
    devKey: DEV_KEY,
    crashPoint: 'afterUsage',
  });
  const created = await uploadVoiceJob(
    url,
    DEV_KEY,
    [
      ['source_language', 'en'],
      ['target_languages', 'es'],
    ],
    wav,
  );
  expect(created.status).toBe(202);
  expect(await exited, output()).toBe('SIGKILL');
  const id = created.data.job_id as string;
  expect(await owes(storage, id)).toBe(true);
  expect(await hasId(storage, `voice/voice_jobs/${id}/minutes`)).toBe(true);
  return id;
}

async function minutes(server: GlossaServer): Promise<number> {
  const reply = await fetch(`${server.url}/v2/usage`, {
    headers: { authorization: `Service-Auth-Key ${DEV_KEY}` },
  });
  const usage = (await reply.json()) as { products?: { product_type: string; account_unit_count: number }[] };
  return usage.products?.find((entry) => entry.product_type === 'speech_to_text')?.account_unit_count ?? 0;
}

async function waitFor(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const BACKENDS: [string, () => Promise<Storages>, boolean][] = [
  ['SQLite', async () => ({ dataDir: mkdtempSync(join(dir, 'data-')) }), false],
  [
    'PostgreSQL',
    async () => ({ dataDir: mkdtempSync(join(dir, 'data-')), databaseUrl: await cluster().createDatabase() }),
    !hasPostgres,
  ],
];

for (const [name, open, skip] of BACKENDS) {
  describe.skipIf(skip)(`the voice jobs' usage operation ids (${name})`, () => {
    it('a restarted server forgets old ids of settled jobs; a recent id still prevents the minutes counted twice', async () => {
      const storage = await open();
      const id = await crashAfterUsage(storage);
      await seedGone(storage, 3 * DAY);
      const before = await count(storage, 'voice/');
      expect(before).toBe(GONE + 1);
      const server = await startServer({
        ...storage,
        port: 0,
        freePort: 0,
        host: '127.0.0.1',
        logger: false,
        devKey: DEV_KEY,
        features: [voiceFeature()],
      });
      try {
        await waitFor(async () => !(await owes(storage, id)), 'the recovery');
        await waitFor(async () => (await count(storage, 'voice/')) === 1, 'the sweep');
        expect(await hasId(storage, `voice/voice_jobs/${id}/minutes`)).toBe(true);
        // Applied once (before the crash), not again by the recovery.
        expect(await minutes(server)).toBeCloseTo(secondsOf(wav) / 60, 4);
        // Another feature's prefix is not voice's to forget.
        expect(await count(storage, 'documents/')).toBe(1);
        console.info(
          `${name}: usage_operations 'voice/' rows before the restart ${before}, after ${await count(storage, 'voice/')}`,
        );
      } finally {
        await server.close();
      }
    }, 90_000);

    it('keeps the id of a job that still owes its minutes, however old, until they are settled', async () => {
      const storage = await open();
      const id = await crashAfterUsage(storage);
      const threeDaysAgo = new Date(Date.now() - 3 * DAY).toISOString();
      // Created, finished and its minutes applied three days ago; the row owes them still.
      await query(
        storage,
        {
          sqlite: 'UPDATE voice_jobs SET created_at = ? WHERE id = ?',
          postgres: 'UPDATE voice_jobs SET created_at = $1 WHERE id = $2',
        },
        [threeDaysAgo, id],
      );
      await query(
        storage,
        {
          sqlite: 'UPDATE usage_operations SET applied_at = ? WHERE id = ?',
          postgres: 'UPDATE usage_operations SET applied_at = $1 WHERE id = $2',
        },
        [threeDaysAgo, `voice/voice_jobs/${id}/minutes`],
      );
      await seedGone(storage, 3.5 * DAY);
      let spine: Storage;
      let oldestOwed: () => Promise<Date | undefined>;
      let close: () => Promise<void>;
      const prefix = storage.databaseUrl ? 'voice/' : 'voice/voice_jobs/';
      if (storage.databaseUrl) {
        const opened = await createPostgresStorage(storage.databaseUrl);
        const store = createFleetVoiceStore(opened.pool, async () => null);
        spine = opened;
        oldestOwed = () => store.oldestOwed();
        close = () => opened.close();
      } else {
        const opened = createSqliteStorage(storage.dataDir);
        const db = new Database(join(storage.dataDir, 'voice.sqlite'));
        spine = opened;
        oldestOwed = async () => sqliteOldestOwed(db, 'voice_jobs');
        close = async () => {
          db.close();
          await opened.close();
        };
      }
      try {
        const context = { storage: spine } as unknown as ServiceContext;
        const oldest = await oldestOwed();
        expect(Date.now() - oldest!.getTime()).toBeGreaterThan(3 * DAY - 60_000);
        // The bound is a day before that job: its id stays, and so do the settled ids after the bound.
        expect(await pruneOperations(context, prefix, oldest)).toBe(0);
        expect(await hasId(storage, `voice/voice_jobs/${id}/minutes`)).toBe(true);
        // Settled (the id says the minutes were applied), the row owes nothing: the bound is a day ago.
        await query(
          storage,
          {
            sqlite: 'UPDATE voice_jobs SET usage_pending = NULL WHERE id = ?',
            postgres: 'UPDATE voice_jobs SET usage_pending = NULL WHERE id = $1',
          },
          [id],
        );
        expect(await oldestOwed()).toBeUndefined();
        const started = performance.now();
        expect(await pruneOperations(context, prefix, undefined)).toBe(GONE + 1);
        const ms = performance.now() - started;
        expect(await count(storage, 'voice/')).toBe(0);
        expect(await count(storage, 'documents/')).toBe(1);
        console.info(`${name}: pruned ${GONE + 1} 'voice/' operation ids in ${ms.toFixed(1)} ms`);
      } finally {
        await close();
      }
    }, 90_000);
  });
}
