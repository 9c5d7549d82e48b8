/**
 * A remote Glossa service through the CLI: its engine fingerprints key the cache, its kept-source header makes failures.
 *
 * A remote Glossa service's engines key the CLI's persistent cache (the `X-Glossa-Engine-Fingerprints`
 * header of its target-language list): when the service at the same URL changes the model of one target,
 * the next run re-translates that target's segments and nothing else; an unchanged rerun sends no
 * translate request. Real servers run in process (their `openai` engine pointed at a local
 * chat-completions double), behind a counting proxy that stands for "the service's URL".
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GlossaServer, startServer } from '@glossa/server';
import { expect, it } from 'vitest';
import { translateCommand } from '../src/commands/translate.js';
import { project } from './helpers.js';

const listen = async (server: Server) => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const readBody = (stream: NodeJS.ReadableStream) =>
  new Promise<Buffer>((done) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => done(Buffer.concat(chunks)));
  });

/**
 * An OpenAI-compatible double: Japanese filler of about the source's length, marked by the model; model
 * `echo` answers every segment unchanged (the service's chain then keeps the source).
 */
function chatDouble() {
  return createServer(async (request, response) => {
    const sent = JSON.parse((await readBody(request)).toString('utf8')) as {
      model: string;
      messages: { role: string; content: string }[];
    };
    const user = JSON.parse(sent.messages.find((m) => m.role === 'user')!.content) as {
      segments: { id: string; text: string }[];
    };
    const mark = sent.model === 'model-b' ? '新' : '旧';
    const translations = user.segments.map(({ id, text }) => ({
      id,
      text:
        sent.model === 'echo'
          ? text
          : `${mark}${'テキスト'.repeat(Math.max(1, Math.round(text.length / 8)))}`,
    }));
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 0,
        model: sent.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: JSON.stringify({ translations }) },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  });
}

it('a model change on the remote service re-translates that target only; an unchanged rerun sends no translate request (in-process servers behind a counting proxy)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'glossa-remote-fp-'));
  const double = chatDouble();
  const llm = await listen(double);
  const servers: GlossaServer[] = [];
  const start = async (model: string) => {
    const server = await startServer({
      dataDir: join(dir, `.server-${model}`),
      port: 0,
      freePort: 0,
      host: '127.0.0.1',
      logger: false,
      devKey: 'dev-key-remote-fingerprint',
      engineOrder: { default: ['pseudo', 'apertium'], ja: ['openai'] },
      providers: { openai: { baseUrl: `${llm}/v1`, apiKey: 'sk-test', model, retryDelayMs: 5 } },
    } as Parameters<typeof startServer>[0]);
    servers.push(server);
    return server;
  };
  // The service's URL: a proxy to the server of the moment, counting translated texts per target.
  let upstream = '';
  let texts: Record<string, number> = {};
  const proxy = createServer(async (request, response) => {
    const body = await readBody(request);
    if (request.url?.startsWith('/v2/translate')) {
      const sent = JSON.parse(body.toString('utf8')) as { target_lang: string; text: string[] };
      const target = sent.target_lang.toLowerCase();
      texts[target] = (texts[target] ?? 0) + sent.text.length;
    }
    const forward = httpRequest(
      new URL(request.url!, upstream),
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      },
    );
    forward.end(body);
  });
  const url = await listen(proxy);
  const run = async (fresh = true) => {
    if (fresh) {
      // A fresh checkout sharing the cache: no outputs, no lock.
      await rm(join(dir, 'i18n'), { recursive: true, force: true });
      await rm(join(dir, 'glossa.lock'), { force: true });
    }
    texts = {};
    const err: string[] = [];
    const code = await translateCommand(
      {
        io: { out: () => {}, err: (t) => err.push(t), isTTY: false },
        cwd: dir,
        env: { GLOSSA_SERVER_URL: url, GLOSSA_API_KEY: 'dev-key-remote-fingerprint' },
      },
      [],
      {},
    );
    expect(code, err.join('\n')).toBe(0);
    return texts;
  };
  try {
    await mkdir(join(dir, 'docs'));
    await writeFile(join(dir, 'docs/a.md'), '# Hello there\n\nA second paragraph of text.\n');
    await writeFile(
      join(dir, 'glossa.config.json'),
      JSON.stringify({
        targetLocales: ['ja', 'es'],
        files: [{ include: 'docs', output: 'i18n/{locale}/{path}' }],
      }),
    );
    upstream = (await start('model-a')).url;
    expect(await run()).toEqual({ ja: 2, es: 2 });
    expect(await readFile(join(dir, 'i18n/ja/a.md'), 'utf8')).toContain('旧');
    expect(await run()).toEqual({}); // everything from the cache
    upstream = (await start('model-b')).url; // same URL, ja's model changed
    expect(await run()).toEqual({ ja: 2 }); // es is still Apertium's: cached
    expect(await readFile(join(dir, 'i18n/ja/a.md'), 'utf8')).toContain('新');
    expect(await run()).toEqual({});
    expect(await run(false)).toEqual({}); // outputs and lock kept: nothing to do either
  } finally {
    await Promise.all(servers.map((server) => server.close()));
    await new Promise((done) => proxy.close(done));
    await new Promise((done) => double.close(done));
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);

it('segments the remote service kept in the source language are failures with file and position (X-Glossa-Kept-Source; in-process server, echoing double)', async () => {
  const dir = await project({
    'docs/a.md':
      '# Install the package before you start\n\nThis paragraph explains how the whole build works for everyone.\n',
    'glossa.config.json': JSON.stringify({
      targetLocales: ['ja', 'es'],
      files: [{ include: 'docs', output: 'i18n/{locale}/{path}' }],
    }),
  });
  const double = chatDouble();
  const llm = await listen(double);
  const server = await startServer({
    dataDir: join(dir, '.server'),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    devKey: 'dev-key-remote-kept',
    engineOrder: { default: ['pseudo', 'apertium'], ja: ['openai'] },
    providers: { openai: { baseUrl: `${llm}/v1`, apiKey: 'sk-test', model: 'echo', retryDelayMs: 5 } },
  } as Parameters<typeof startServer>[0]);
  try {
    const out: string[] = [];
    const code = await translateCommand(
      {
        io: { out: (t) => out.push(t), err: (t) => out.push(t), isTTY: false },
        cwd: dir,
        env: { GLOSSA_SERVER_URL: server.url, GLOSSA_API_KEY: 'dev-key-remote-kept' },
      },
      [],
      {},
    );
    const text = out.join('\n');
    expect(code, text).toBe(1);
    expect(text).toMatch(/failures:\s+2/);
    expect(text).toMatch(
      /docs\/a\.md:1:3 \[ja\]: every engine failed, kept in the source language \(service:/,
    );
    expect(text).toMatch(/docs\/a\.md:3:1 \[ja\]: every engine failed/);
    expect(text).not.toMatch(/\[es\]: every engine failed/);
  } finally {
    await server.close();
    await new Promise((done) => double.close(done));
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);

it('texts the remote service translated with English words left are warnings with file and position, exit 0 (X-Glossa-Left-Words; in-process server, real Apertium)', async () => {
  const dir = await project({
    'docs/a.md': '# The house is big\n\nThe house is big. Open the color picker.\n',
    'glossa.config.json': JSON.stringify({
      targetLocales: ['es'],
      files: [{ include: 'docs', output: 'i18n/{locale}/{path}' }],
    }),
  });
  const server = await startServer({
    dataDir: join(dir, '.server'),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    devKey: 'dev-key-remote-left',
  });
  try {
    const out: string[] = [];
    const err: string[] = [];
    const code = await translateCommand(
      {
        io: { out: (t) => out.push(t), err: (t) => err.push(t), isTTY: false },
        cwd: dir,
        env: { GLOSSA_SERVER_URL: server.url, GLOSSA_API_KEY: 'dev-key-remote-left' },
      },
      [],
      {},
    );
    const text = [...out, ...err].join('\n');
    expect(code, text).toBe(0);
    expect(text).toMatch(/failures:\s+0/);
    expect(err.filter((line) => line.includes('warning: '))).toEqual([
      "docs/a.md [es]: warning: 1 text translated with English words left: 'picker' (3:1)",
    ]);
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
