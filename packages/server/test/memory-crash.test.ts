import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { RESOURCE_DATABASE_FILE } from '../src/storage/resource-db.js';

const bin = join(import.meta.dirname, 'serve.ts');
const KEY = 'crash-test-key-0123456789abcdefghijklmnopqrstuvw';
const dataDir = mkdtempSync(join(tmpdir(), 'glossa-memory-crash-'));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function startChild(): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  // Node itself with tsx as a loader (not the tsx wrapper), so that SIGKILL reaches the server process.
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions',
      '@glossa/source',
      bin,
      '--data-dir',
      dataDir,
      '--port',
      '0',
      '--free-port',
      '0',
      '--log-level',
      'silent',
    ],
    { env: { ...process.env, GLOSSA_API_KEY: KEY } },
  );
  children.push(child);
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /paid plan at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.on('close', () => reject(new Error(stderr)));
  });
  return { child, url };
}

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
    const first = await startChild();
    const content = largeTmx();
    const started = await call(first.url, '/v3/translation_memories/import', {
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
    let written = 0;
    for (let i = 0; i < 400 && written === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      written = count('SELECT COUNT(*) AS n FROM memory_segments');
    }
    expect(written).toBeGreaterThan(0);
    const exited = new Promise((resolve) => first.child.on('close', resolve));
    first.child.kill('SIGKILL');
    await exited;

    // Killed mid-import: what was written belongs to a memory that is not ready (no read sees it).
    expect(count('SELECT COUNT(*) AS n FROM memories WHERE ready = 1')).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM memory_segments')).toBeLessThan(UNITS);

    const second = await startChild();
    expect((await call(second.url, '/v3/translation_memories')).data).toMatchObject({ total_count: 0 });
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
    let job: Record<string, any> = {};
    for (let i = 0; i < 2400; i++) {
      job = (await call(second.url, `/v3/translation_memories/jobs/${jobId}`)).data;
      const status = (job.results as { status: string }[])[0]!.status;
      if (status !== 'processing') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const result = (job.results as { status: string; translation_memory_id: string }[])[0]!;
    expect(result.status).toBe('completed');
    const memory = await call(second.url, `/v3/translation_memories/${result.translation_memory_id}`);
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
