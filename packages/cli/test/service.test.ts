/** `glossa sync` and `glossa serve` as child processes: resources on a real server, a real server process. */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { authorizationHeader } from '@glossa/protocol';
import { type GlossaServer, startServer } from '@glossa/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, glossa, project } from './helpers.js';

let server: GlossaServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startServer({
    dataDir: await project({}),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
  });
  env = childEnv({ GLOSSA_SERVER_URL: server.url, GLOSSA_API_KEY: server.devKey });
});
afterAll(() => server.close());

describe('glossa sync', () => {
  it('creates the glossary once, reuses it while unchanged, and translate enforces its terms', async () => {
    const cwd = await project({
      'glossa.config.json': JSON.stringify({
        targetLocales: ['es'],
        files: ['docs/*.md'],
        glossaries: ['terms.tsv'],
      }),
      'terms.tsv': 'bakery\tobrador\n',
      'docs/a.md': 'The bakery opens early.\n',
    });
    const first = await glossa(['sync'], { cwd, env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^glossary glossa:terms:en-es:[0-9a-f]{16} → \S+ \(created\)\n$/);
    const second = await glossa(['sync'], { cwd, env });
    expect(second.stdout).toBe(first.stdout.replace(' (created)', ''));
    const run = await glossa(['translate'], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(cwd, 'i18n/es/a.md'), 'utf8')).toMatch(/obrador/);
    // Without outputs and lock, estimate finds the glossary run's targets in the cache (same content hash).
    await rm(join(cwd, 'i18n'), { recursive: true });
    await rm(join(cwd, 'glossa.lock'));
    const estimate = await glossa(['estimate', '--json'], { cwd, env });
    expect(JSON.parse(estimate.stdout)).toMatchObject({ segments: 1, cacheHits: 1, requests: 0 });
  }, 120_000);

  it('gives pseudo-locales no glossary (a glossary needs two languages)', async () => {
    const cwd = await project({
      'glossa.config.json': JSON.stringify({
        targetLocales: ['es', 'en-XA'],
        files: ['docs/*.md'],
        glossaries: ['terms.tsv'],
      }),
      'terms.tsv': 'bakery\tobrador\n',
      'docs/a.md': 'The bakery opens early.\n',
    });
    const sync = await glossa(['sync'], { cwd, env });
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/^glossary glossa:terms:en-es:[0-9a-f]{16} → \S+( \(created\))?\n$/);
    const run = await glossa(['translate'], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(cwd, 'i18n/es/a.md'), 'utf8')).toMatch(/obrador/);
    expect(await readFile(join(cwd, 'i18n/en-XA/a.md'), 'utf8')).toMatch(/ƀååķééŕýý/);
  }, 120_000);

  it('says when there is nothing to sync', async () => {
    const cwd = await project({ 'glossa.config.json': '{"targetLocales": ["es"]}' });
    const run = await glossa(['sync'], { cwd, env });
    expect(run).toMatchObject({
      code: 0,
      stdout: 'nothing to sync: the config has no glossaries, memories or styleLists\n',
    });
  }, 60_000);
});

describe('glossa serve', () => {
  it('serves the interface until SIGTERM, then exits 0', async () => {
    const cwd = await project({});
    const tsx = createRequire(import.meta.url).resolve('tsx/cli');
    const bin = resolve(import.meta.dirname, '../src/bin.ts');
    const child = spawn(
      process.execPath,
      [
        tsx,
        '--conditions',
        '@glossa/source',
        bin,
        'serve',
        '--port',
        '0',
        '--free-port',
        '0',
        '--data-dir',
        join(cwd, 'data'),
      ],
      { cwd, env: childEnv({ GLOSSA_API_KEY: 'cli-serve-test-key' }) },
    );
    let stdout = '';
    const url = await new Promise<string>((done, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk;
        const match = /serving the paid plan at (http:\/\/\S+) and the free plan at http/.exec(stdout);
        if (match) done(match[1]!);
      });
      child.once('exit', (code) => fail(new Error(`serve exited ${code}: ${stdout}`)));
    });
    const response = await fetch(`${url}/v2/translate`, {
      method: 'POST',
      headers: {
        Authorization: authorizationHeader('cli-serve-test-key'),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ text: ['Hello'], target_lang: 'en-XA' }),
    });
    expect(response.status).toBe(200);
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});
