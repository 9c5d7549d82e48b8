/**
 * A process that embeds the server ends by itself once the server is closed: the threads the server starts
 * on demand (the body parser, the glossary thread, the glossary database thread) never keep it alive. Node 20
 * refs a Worker's port again when a 'message' listener is added after `unref()`, and the body parser's
 * thread, started by the first large body, did so: a process that had taken one never exited.
 *
 * The child (the server from its sources) creates a glossary from a 300 KB JSON body, which goes through
 * all three threads, closes the server and returns; the test waits for it to exit on its own, and reports what
 * kept it alive if it does not.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { THREAD_PARSE_BYTES } from '../src/http/body.js';
import { FROM_SOURCES } from './abuse-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'glossa-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHILD = `
import { startServer } from ${JSON.stringify(new URL('../src/server.ts', import.meta.url).pathname)};
const server = await startServer({ dataDir: process.argv[2], port: 0, freePort: 0, host: '127.0.0.1', logger: false });
const entries = Array.from({ length: 12_000 }, (_, i) => 'term' + i + '\\tentrada' + i).join('\\n');
const body = JSON.stringify({
  name: 'large',
  dictionaries: [{ source_lang: 'en', target_lang: 'es', entries, entries_format: 'tsv' }],
});
const reply = await fetch(server.url + '/v3/glossaries', {
  method: 'POST',
  headers: { authorization: 'Service-Auth-Key ' + server.devKey, 'content-type': 'application/json' },
  body,
});
console.log('created', reply.status, body.length, reply.status === 201 ? '' : await reply.text());
await server.close();
console.log('closed');
// Once closed, only what keeps the process alive is left: say what it is, without keeping it alive.
setInterval(() => console.log('alive', JSON.stringify(process.getActiveResourcesInfo())), 2_000).unref();
`;

it('a process whose server took a large body ends once the server is closed', async () => {
  // A file, not \`-e\`: the threads inherit Node's flags, and \`--input-type\` would change how they load.
  const script = join(dir, 'child.mjs');
  writeFileSync(script, CHILD);
  const child = spawn(process.execPath, [...FROM_SOURCES, script, join(dir, 'data')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
  // Far more than the child needs (a few seconds): a child still alive then is kept alive by something.
  const stuck = setTimeout(() => child.kill('SIGKILL'), 50_000);
  const code = await ended;
  clearTimeout(stuck);
  const [, status, length] = /created (\d+) (\d+)/.exec(out) ?? [];
  expect(status, out).toBe('201');
  expect(Number(length)).toBeGreaterThan(THREAD_PARSE_BYTES);
  expect(out).toContain('closed');
  expect(out).not.toContain('alive');
  expect(code).toBe(0);
}, 60_000);
