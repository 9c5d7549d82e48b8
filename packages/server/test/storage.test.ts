/**
 * The storage interface's contract, checked on both implementations: SQLite (a real file) and PostgreSQL
 * (a real cluster started for this file). Two PostgreSQL storages on one database stand for two instances.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../src/storage/postgres.js';
import { POSTGRES_MIGRATIONS } from '../src/storage/postgres-migrations.js';
import { createSqliteStorage } from '../src/storage/sqlite.js';
import type { NewAccount, Reservation, Storage } from '../src/storage/storage.js';
import { postgresForFile } from './postgres-for-file.js';
import { hasPostgres } from './services.js';

const cluster = postgresForFile('the PostgreSQL storage tests (apt-get install postgresql)');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Backend {
  /** A fresh store, and a second handle on the same data (another instance, or the same file reopened). */
  open(): Promise<{ first: Storage; second: () => Promise<Storage> }>;
}

const BACKENDS: [string, Backend, boolean][] = [
  [
    'SQLite',
    {
      async open() {
        const dir = mkdtempSync(join(tmpdir(), 'glossa-storage-'));
        dirs.push(dir);
        return { first: createSqliteStorage(dir), second: async () => createSqliteStorage(dir) };
      },
    },
    false,
  ],
  [
    'PostgreSQL',
    {
      async open() {
        const url = await cluster().createDatabase();
        return { first: await createPostgresStorage(url), second: () => createPostgresStorage(url) };
      },
    },
    !hasPostgres,
  ],
];

const account = (id: string, extra: Partial<NewAccount> = {}): NewAccount => ({
  id,
  plan: 'paid',
  admin: false,
  detectionBeta: false,
  qualityAlpha: false,
  voiceJobsAlpha: false,
  memoryMatches: false,
  characterLimit: 1000,
  ...extra,
});

const reservation = (accountId: string, units: number, extra: Partial<Reservation> = {}): Reservation => ({
  accountId,
  keyId: 'key-1',
  product: 'translate',
  units,
  customTag: '',
  day: '2026-11-25',
  periodFrom: '2026-11-01',
  periodTo: '2026-12-01',
  limit: 100,
  ...extra,
});

for (const [name, backend, skip] of BACKENDS) {
  describe.skipIf(skip)(`${name} storage`, () => {
    it('keeps accounts, keys by hash and settings', async () => {
      const { first: storage } = await backend.open();
      try {
        const created = await storage.createAccount(
          account('acct-1', { plan: 'free', admin: true, voiceJobsAlpha: true, characterLimit: 500_000 }),
        );
        expect(created).toMatchObject({
          id: 'acct-1',
          plan: 'free',
          admin: true,
          detectionBeta: false,
          voiceJobsAlpha: true,
          characterLimit: 500_000,
        });
        expect(await storage.getAccount('acct-1')).toEqual(created);
        expect(await storage.getAccount('nobody')).toBeUndefined();
        const key = await storage.addKey('acct-1', 'hash-1');
        expect(await storage.findKeyByHash('hash-1')).toEqual({ key, account: created });
        expect(await storage.findKeyByHash('hash-2')).toBeUndefined();
        await expect(storage.addKey('acct-1', 'hash-1')).rejects.toThrow();
        expect(await storage.getSetting('s')).toBeUndefined();
        await storage.setSetting('s', 'one');
        await storage.setSetting('s', 'two');
        expect(await storage.getSetting('s')).toBe('two');
        await storage.setSetting('t', 'three');
        await storage.deleteSettings(['s', 't', 'never-set']);
        expect(await storage.getSetting('s')).toBeUndefined();
        expect(await storage.getSetting('t')).toBeUndefined();
      } finally {
        await storage.close();
      }
    });

    it('reserves characters up to the limit, never past it, and refunds', async () => {
      const { first: storage } = await backend.open();
      try {
        await storage.createAccount(account('acct-2'));
        expect(await storage.reserveCharacters(reservation('acct-2', 60))).toBe(true);
        expect(await storage.reserveCharacters(reservation('acct-2', 41, { product: 'write' }))).toBe(false);
        expect(await storage.reserveCharacters(reservation('acct-2', 40, { product: 'write' }))).toBe(true);
        expect(await storage.reserveCharacters(reservation('acct-2', 1))).toBe(false);
        // Another period, and voice minutes, do not count against this one.
        expect(await storage.reserveCharacters(reservation('acct-2', 100, { day: '2026-10-31' }))).toBe(
          false,
        );
        await storage.recordUsage({ ...reservation('acct-2', 2.5), product: 'speech_to_text' });
        await storage.recordUsage({ ...reservation('acct-2', -10), keyId: 'key-1' });
        expect(await storage.reserveCharacters(reservation('acct-2', 10, { keyId: 'key-2' }))).toBe(true);
        const totals = await storage.usageTotals('acct-2', 'key-1', '2026-11-01', '2026-12-01');
        expect(totals.sort((a, b) => a.product.localeCompare(b.product))).toEqual([
          { product: 'speech_to_text', accountUnits: 2.5, keyUnits: 2.5 },
          { product: 'translate', accountUnits: 60, keyUnits: 50 },
          { product: 'write', accountUnits: 40, keyUnits: 40 },
        ]);
      } finally {
        await storage.close();
      }
    });

    // SQLite has one writing process (its quota totals live in that process): one handle there; two
    // PostgreSQL handles stand for two instances.
    it('concurrent reservations never pass the limit together', async () => {
      const { first, second } = await backend.open();
      const other = name === 'SQLite' ? first : await second();
      try {
        await first.createAccount(account('acct-3'));
        const attempts = await Promise.all(
          Array.from({ length: 40 }, (_, index) =>
            (index % 2 ? first : other).reserveCharacters(reservation('acct-3', 7)),
          ),
        );
        // 14 reservations of 7 fit in 100.
        expect(attempts.filter(Boolean)).toHaveLength(14);
        const totals = await other.usageTotals('acct-3', 'key-1', '2026-11-01', '2026-12-01');
        expect(totals).toEqual([{ product: 'translate', accountUnits: 98, keyUnits: 98 }]);
      } finally {
        await first.close();
        if (other !== first) await other.close();
      }
    });

    it('sums custom tags by period and by day, one page at a time', async () => {
      const { first: storage } = await backend.open();
      try {
        await storage.createAccount(account('acct-4', { characterLimit: 10_000 }));
        for (const [tag, day, units] of [
          ['alpha', '2026-11-02', 5],
          ['alpha', '2026-11-03', 7],
          ['beta', '2026-11-03', 11],
          ['gamma', '2026-11-04', 13],
          ['', '2026-11-04', 17],
        ] as const) {
          await storage.recordUsage({ ...reservation('acct-4', units), customTag: tag, day });
        }
        await storage.recordUsage({
          ...reservation('acct-4', 3),
          customTag: 'alpha',
          day: '2026-11-02',
          product: 'write',
        });
        const query = { accountId: 'acct-4', from: '2026-11-01', to: '2026-11-30', offset: 0, limit: 2 };
        expect(await storage.customTagUsage({ ...query, byDay: false })).toEqual([
          { customTag: 'alpha', units: { translate: 12, write: 3 } },
          { customTag: 'beta', units: { translate: 11 } },
        ]);
        expect(await storage.customTagUsage({ ...query, byDay: false, offset: 2 })).toEqual([
          { customTag: 'gamma', units: { translate: 13 } },
        ]);
        expect(await storage.customTagUsage({ ...query, byDay: true, limit: 3 })).toEqual([
          { customTag: 'alpha', day: '2026-11-02', units: { translate: 5, write: 3 } },
          { customTag: 'alpha', day: '2026-11-03', units: { translate: 7 } },
          { customTag: 'beta', day: '2026-11-03', units: { translate: 11 } },
        ]);
      } finally {
        await storage.close();
      }
    });

    it('sums the characters sent to each engine per account and day, by period and by day', async () => {
      const { first, second } = await backend.open();
      let other: Storage | undefined;
      try {
        await first.createAccount(account('acct-e'));
        await first.createAccount(account('acct-f'));
        const sent = (
          accountId: string,
          day: string,
          engine: string,
          characters: number,
          tokens?: { tokensIn: number; tokensOut: number },
        ) => ({ accountId, day, engine, characters, ...tokens });
        // One request's engines at once (the same engine twice is summed), then more on other days.
        await first.recordEngineUsage([
          sent('acct-e', '2026-11-02', 'deepl', 100),
          sent('acct-e', '2026-11-02', 'apertium', 7),
          sent('acct-e', '2026-11-02', 'deepl', 5),
        ]);
        await first.recordEngineUsage([sent('acct-e', '2026-11-03', 'deepl', 20)]);
        await first.recordEngineUsage([
          sent('acct-e', '2026-12-01', 'openai', 1000, { tokensIn: 300, tokensOut: 120 }),
        ]);
        // An LLM answer that could not be used: its tokens count (the provider billed them), no characters.
        await first.recordEngineUsage([
          sent('acct-e', '2026-12-01', 'openai', 0, { tokensIn: 40, tokensOut: 8 }),
        ]);
        await first.recordEngineUsage([sent('acct-f', '2026-11-02', 'deepl', 9)]);
        await first.recordEngineUsage([]);
        const query = { accountId: 'acct-e', from: '2026-11-01', to: '2026-11-30' };
        expect(await first.engineUsage({ ...query, byDay: false })).toEqual([
          { engine: 'apertium', characters: 7, tokensIn: 0, tokensOut: 0 },
          { engine: 'deepl', characters: 125, tokensIn: 0, tokensOut: 0 },
        ]);
        expect(await first.engineUsage({ ...query, byDay: true })).toEqual([
          { engine: 'apertium', day: '2026-11-02', characters: 7, tokensIn: 0, tokensOut: 0 },
          { engine: 'deepl', day: '2026-11-02', characters: 105, tokensIn: 0, tokensOut: 0 },
          { engine: 'deepl', day: '2026-11-03', characters: 20, tokensIn: 0, tokensOut: 0 },
        ]);
        // Committed: another instance (or the file opened again) reads the same.
        await first.commitUsage();
        other = await second();
        expect(await other.engineUsage({ ...query, to: '2026-12-31', byDay: false })).toEqual([
          { engine: 'apertium', characters: 7, tokensIn: 0, tokensOut: 0 },
          { engine: 'deepl', characters: 125, tokensIn: 0, tokensOut: 0 },
          { engine: 'openai', characters: 1000, tokensIn: 340, tokensOut: 128 },
        ]);
        expect(await other.engineUsage({ ...query, accountId: 'acct-f', byDay: false })).toEqual([
          { engine: 'deepl', characters: 9, tokensIn: 0, tokensOut: 0 },
        ]);
        expect(await other.engineUsage({ ...query, accountId: 'acct-none', byDay: false })).toEqual([]);
      } finally {
        await first.close();
        await other?.close();
      }
    });

    // A second handle on SQLite is another process's view of the file: it sees what was committed only.
    it('commits usage on demand; applies an operation once, committed before it resolves, whoever applies it again', async () => {
      const { first, second } = await backend.open();
      const other = await second();
      try {
        await first.createAccount(account('acct-6'));
        expect(await first.reserveCharacters(reservation('acct-6', 80))).toBe(true);
        // SQLite writes reservations behind; committed now, the other handle reads it.
        await first.commitUsage();
        expect(await other.usageTotals('acct-6', 'key-1', '2026-11-01', '2026-12-01')).toEqual([
          { product: 'translate', accountUnits: 80, keyUnits: 80 },
        ]);
        const refund = { ...reservation('acct-6', -80) };
        const minutes = { ...reservation('acct-6', 1.5), product: 'speech_to_text' as const };
        expect(await first.applyUsageOnce('documents/d1/refund', refund)).toBe(true);
        // Concurrent repeats, on both handles: none applies it again.
        const repeats = await Promise.all(
          Array.from({ length: 6 }, (_, index) =>
            (index % 2 ? first : other).applyUsageOnce('documents/d1/refund', refund),
          ),
        );
        expect(repeats).toEqual([false, false, false, false, false, false]);
        // Committed at once: the other handle reads it without the first closing or reading.
        const concurrent = await Promise.all([
          first.applyUsageOnce('voice/j1/minutes', minutes),
          other.applyUsageOnce('voice/j1/minutes', minutes),
        ]);
        expect(concurrent.filter(Boolean)).toHaveLength(1);
        expect(
          (await other.usageTotals('acct-6', 'key-1', '2026-11-01', '2026-12-01')).sort((a, b) =>
            a.product.localeCompare(b.product),
          ),
        ).toEqual([
          { product: 'speech_to_text', accountUnits: 1.5, keyUnits: 1.5 },
          { product: 'translate', accountUnits: 0, keyUnits: 0 },
        ]);
        // The quota learns the refund: the full limit is free again.
        expect(await first.reserveCharacters(reservation('acct-6', 100))).toBe(true);
      } finally {
        await first.close();
        await other.close();
      }
    });

    it('reserves once per operation id: committed at once, a repeat reserves nothing and is true even when full', async () => {
      const { first, second } = await backend.open();
      const other = await second();
      try {
        await first.createAccount(account('acct-7'));
        const once = reservation('acct-7', 60, { operationId: 'documents/d7/reservation' });
        // Too large: nothing reserved, and the operation not recorded (a later try may fit).
        expect(await first.reserveCharacters({ ...once, units: 101 })).toBe(false);
        const attempts = await Promise.all([
          first.reserveCharacters(once),
          other.reserveCharacters(once),
          first.reserveCharacters(once),
        ]);
        expect(attempts).toEqual([true, true, true]);
        // Committed at once (the other handle reads it), reserved once.
        expect(await other.usageTotals('acct-7', 'key-1', '2026-11-01', '2026-12-01')).toEqual([
          { product: 'translate', accountUnits: 60, keyUnits: 60 },
        ]);
        // The quota holds the rest only; the operation's repeat is still true (it was reserved).
        expect(await first.reserveCharacters(reservation('acct-7', 41))).toBe(false);
        expect(await first.reserveCharacters(reservation('acct-7', 40))).toBe(true);
        expect(await other.reserveCharacters(once)).toBe(true);
      } finally {
        await first.close();
        await other.close();
      }
    });

    it('forgets the operation ids of one prefix recorded before a bound; the others still apply once', async () => {
      const { first, second } = await backend.open();
      const other = await second();
      try {
        await first.createAccount(account('acct-8'));
        const refund = reservation('acct-8', -5);
        const minutes = { ...reservation('acct-8', 2), product: 'speech_to_text' as const };
        expect(await first.applyUsageOnce('documents/d8/refund', refund)).toBe(true);
        expect(
          await first.reserveCharacters(
            reservation('acct-8', 7, { operationId: 'documents/d8/reservation' }),
          ),
        ).toBe(true);
        expect(await first.applyUsageOnce('voice/voice_jobs/j8/minutes', minutes)).toBe(true);
        // A prefix that only looks alike ('documents' without its slash) is another prefix.
        expect(await first.applyUsageOnce('documentsX/d8/refund', refund)).toBe(true);
        // A bound before they were recorded forgets none of them.
        expect(await other.pruneUsageOperations('documents/', new Date(Date.now() - 60_000))).toBe(0);
        expect(await first.applyUsageOnce('documents/d8/refund', refund)).toBe(false);
        // A bound after them: the two 'documents/' ids go, on the other handle too; the rest stay.
        const bound = new Date(Date.now() + 1000);
        expect(await other.pruneUsageOperations('documents/', bound)).toBe(2);
        expect(await other.pruneUsageOperations('documents/', bound)).toBe(0);
        expect(await other.applyUsageOnce('voice/voice_jobs/j8/minutes', minutes)).toBe(false);
        expect(await other.applyUsageOnce('documentsX/d8/refund', refund)).toBe(false);
        // Forgotten: applying the id again applies its units again (why a feature prunes only ids that
        // nothing can apply again).
        expect(await first.applyUsageOnce('documents/d8/refund', refund)).toBe(true);
        expect(
          (await other.usageTotals('acct-8', 'key-1', '2026-11-01', '2026-12-01')).sort((a, b) =>
            a.product.localeCompare(b.product),
          ),
        ).toEqual([
          { product: 'speech_to_text', accountUnits: 2, keyUnits: 2 },
          { product: 'translate', accountUnits: 7 - 5 - 5 - 5, keyUnits: 7 - 5 - 5 - 5 },
        ]);
      } finally {
        await first.close();
        await other.close();
      }
    });

    it('opens again on the same data with the schema already there', async () => {
      const { first, second } = await backend.open();
      await first.createAccount(account('acct-5'));
      await first.reserveCharacters(reservation('acct-5', 9));
      await first.close();
      const again = await second();
      try {
        expect((await again.getAccount('acct-5'))?.id).toBe('acct-5');
        expect(await again.usageTotals('acct-5', 'key-1', '2026-11-01', '2026-12-01')).toEqual([
          { product: 'translate', accountUnits: 9, keyUnits: 9 },
        ]);
      } finally {
        await again.close();
      }
    });
  });
}

describe.skipIf(!hasPostgres)('PostgreSQL migrations', () => {
  it('instances starting together migrate once', async () => {
    const url = await cluster().createDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => createPostgresStorage(url)));
    try {
      const { rows } = await stores[0]!.pool.query('SELECT version FROM glossa_schema');
      expect(rows).toEqual([{ version: POSTGRES_MIGRATIONS.length }]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
