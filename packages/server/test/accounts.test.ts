import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';

const dirs: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-accounts-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const base = { port: 0, freePort: 0, host: '127.0.0.1', logger: false } as const;

async function usageStatus(url: string, key: string) {
  return (await fetch(`${url}/v2/usage`, { headers: { authorization: `Service-Auth-Key ${key}` } })).status;
}

describe('development account', () => {
  const presetKey = process.env.GLOSSA_API_KEY;
  beforeEach(() => {
    delete process.env.GLOSSA_API_KEY;
  });
  afterEach(() => {
    if (presetKey !== undefined) process.env.GLOSSA_API_KEY = presetKey;
  });

  it('is created on first start, keeps its key across restarts in an owner-only file', async () => {
    const dataDir = newDataDir();
    const first = await startServer({ ...base, dataDir });
    expect(first.devAccountCreated).toBe(true);
    const key = first.devKey;
    await first.close();
    expect(readFileSync(join(dataDir, 'dev-key'), 'utf8').trim()).toBe(key);
    expect(statSync(join(dataDir, 'dev-key')).mode & 0o777).toBe(0o600);
    const second = await startServer({ ...base, dataDir });
    try {
      expect(second.devAccountCreated).toBe(false);
      expect(second.devKey).toBe(key);
      expect(await usageStatus(second.url, key)).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('uses GLOSSA_API_KEY (the devKey option) as its key; a :fx key gets a free-plan development account', async () => {
    const dataDir = newDataDir();
    const server = await startServer({ ...base, dataDir, devKey: 'local-dev-key-123' });
    try {
      expect(server.devKey).toBe('local-dev-key-123');
      expect(await usageStatus(server.url, 'local-dev-key-123')).toBe(200);
      const usage = await fetch(`${server.url}/v2/usage`, {
        headers: { authorization: 'Service-Auth-Key local-dev-key-123' },
      }).then((r) => r.json() as Promise<{ products: unknown[] }>);
      expect(usage.products).toHaveLength(3);
    } finally {
      await server.close();
    }
    const free = await startServer({ ...base, dataDir: newDataDir(), devKey: 'local-dev-key:fx' });
    try {
      expect(await usageStatus(free.freeUrl, 'local-dev-key:fx')).toBe(200);
      expect(await usageStatus(free.url, 'local-dev-key:fx')).toBe(403);
    } finally {
      await free.close();
    }
  });
});

describe('keys', () => {
  it('are stored only as hashes', async () => {
    const dataDir = newDataDir();
    const server = await startServer({ ...base, dataDir });
    const paid = await server.createAccount({ plan: 'paid', admin: true });
    const free = await server.createAccount({ plan: 'free' });
    const keys = [server.devKey, paid.key, free.key];
    await server.close();
    const db = new Database(join(dataDir, 'glossa.sqlite'), { readonly: true });
    const dump =
      JSON.stringify(db.prepare('SELECT * FROM api_keys').all()) +
      JSON.stringify(db.prepare('SELECT * FROM settings').all());
    db.close();
    for (const key of keys) expect(dump).not.toContain(key);
    expect(readFileSync(join(dataDir, 'glossa.sqlite')).includes(paid.key)).toBe(false);
  });

  it('createAccount rejects a wrong plan or limit with a TypeError/RangeError', async () => {
    const server = await startServer({ ...base, dataDir: newDataDir() });
    try {
      await expect(server.createAccount({ plan: 'gold' as 'paid' })).rejects.toThrow(
        "createAccount: expected plan 'free' or 'paid', got \"gold\"",
      );
      await expect(server.createAccount({ plan: 'paid', characterLimit: -1 })).rejects.toThrow(RangeError);
      const created = await server.createAccount({ plan: 'paid', characterLimit: 10 });
      expect(created.accountId).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.key).not.toContain(':fx');
    } finally {
      await server.close();
    }
  });

  it('the database runs in WAL mode', async () => {
    const dataDir = newDataDir();
    const server = await startServer({ ...base, dataDir });
    const db = new Database(join(dataDir, 'glossa.sqlite'), { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(1);
    db.close();
    await server.close();
  });
});
