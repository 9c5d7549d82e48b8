import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { RESOURCE_DATABASE_FILE } from '../src/storage/resource-db.js';
import { killHard, pollUntil, startChild } from './crash-harness.js';

const bin = join(import.meta.dirname, 'serve.ts');
const KEY = 'crash-test-key-0123456789abcdefghijklmnopqrstuvw';
const dataDir = mkdtempSync(join(tmpdir(), 'glossa-memory-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The server's CLI in a child process; its URL (what it prints of the paid plan's key). */
const startServerChild = () =>
  startChild(bin, ['--data-dir', dataDir, '--port', '0', '--free-port', '0', '--log-level', 'silent'], {
    ready: /paid plan at (http:\/\/127\.0\.0\.1:\d+)/,
    env: { ...process.env, GLOSSA_API_KEY: KEY },
  });

const call = async (url: string, path: string, init: RequestInit = {}) => {
  const response = await fetch(url + path, {
    ...init,
    headers: {
      authorization: `Service-Auth-Key ${KEY}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  return { status: response.status, data: (await response.json()) as Record<string, any> };
};

const UNITS = 40_000;
function largeTmx(): string {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header srclang="en"/><body>\n'];
  for (let i = 0; i < UNITS; i++) {
    parts.push(
      `<tu><tuv xml:lang="en"><seg>Sentence number ${i} about the file ${i % 97} and window ${i % 13}.</seg></tuv><tuv xml:lang="es"><seg>Frase número ${i} sobre el archivo ${i % 97}.</seg></tuv></tu>\n`,
    );
  }
  parts.push('</body></tmx>\n');
  return parts.join('');
}

const count = (sql: string) => {
  const db = new Database(join(dataDir, RESOURCE_DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('a server killed (SIGKILL) during a large TMX import', () => {
  it('leaves no visible half memory, and the job completes after the restart', async () => {
    const first = await startServerChild();
    const content = largeTmx();
    const started = await call(first.ready, '/v3/translation_memories/import', {
      method: 'POST',
      body: JSON.stringify({
        source_file: { file_name: 'big.tmx', content_length: Buffer.byteLength(content) },
      }),
    });
    expect(started.status).toBe(202);
    const jobId = started.data.job_id as string;
    const put = await fetch(started.data.upload_url as string, { method: 'PUT', body: content });
    expect(put.status).toBe(204);

    // Wait until segments are being written, then kill the process without warning.
    await pollUntil(
      () => count('SELECT COUNT(*) AS n FROM memory_segments'),
      (written) => written > 0,
      { timeoutMs: 10_000, intervalMs: 25, what: 'segments written' },
    );
    await killHard(first);

    // Killed mid-import: what was written belongs to a memory that is not ready (no read sees it).
    expect(count('SELECT COUNT(*) AS n FROM memories WHERE ready = 1')).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM memory_segments')).toBeLessThan(UNITS);

    const second = await startServerChild();
    expect((await call(second.ready, '/v3/translation_memories')).data).toMatchObject({ total_count: 0 });
    const job = await pollUntil(
      async () => (await call(second.ready, `/v3/translation_memories/jobs/${jobId}`)).data,
      (polled) => (polled.results as { status: string }[])[0]!.status !== 'processing',
      { timeoutMs: 120_000, what: `job ${jobId} finished` },
    );
    const result = (job.results as { status: string; translation_memory_id: string }[])[0]!;
    expect(result.status).toBe('completed');
    const memory = await call(second.ready, `/v3/translation_memories/${result.translation_memory_id}`);
    expect(memory.data).toMatchObject({
      segment_count: UNITS,
      source_language: 'en',
      target_languages: ['es'],
    });
    // Consistent: one memory, every segment once, nothing left of the killed attempt.
    expect(count('SELECT COUNT(*) AS n FROM memories')).toBe(1);
    expect(count('SELECT COUNT(*) AS n FROM memory_segments')).toBe(UNITS);
    expect(count('SELECT COUNT(DISTINCT memory_id) AS n FROM memory_postings')).toBe(1);
    second.child.kill('SIGTERM');
  }, 180_000);
});
