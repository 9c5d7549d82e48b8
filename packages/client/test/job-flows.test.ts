import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { GlossaClient, JobFailedError, JobTimeoutError, NotFoundError } from '../src/index.js';
import { type ScriptedRequest, sendJson, startScriptedServer } from './scripted-server.js';

const server = await startScriptedServer();
const work = await mkdtemp(join(tmpdir(), 'glossa-client-flows-'));
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

const KEY = 'flow-key-8c1d2e';
let logLines: string[] = [];
beforeEach(() => {
  logLines = [];
});
const client = () =>
  new GlossaClient({
    authKey: KEY,
    serverUrl: server.url,
    retryBaseDelay: 1,
    logger: { debug: (line) => logLines.push(line), warn: (line) => logLines.push(line) },
  });
const calls = () => server.requests.map((request) => `${request.method} ${request.path}`);
const jsonOf = (request: ScriptedRequest | undefined) => JSON.parse(request?.body.toString('utf8') ?? 'null');
const job = (id: string, result: Record<string, unknown>) => ({
  job_id: id,
  operation: 'import',
  creation_time: '2026-01-01T00:00:00Z',
  updated_time: '2026-01-01T00:00:00Z',
  parameters: {},
  results: [result],
});
const TMX = Buffer.from('<?xml version="1.0"?><tmx version="1.4"><header srclang="en"/><body/></tmx>');

describe('translation memory jobs, against a scripted loopback service (fake: the server lacks them yet)', () => {
  it('imports: creates the job, PUTs the TMX to the signed URL without the key, polls until completed', async () => {
    let polls = 0;
    server.routes({
      'POST /v3/translation_memories/import': (_request, res) =>
        sendJson(res, 200, {
          job_id: 'job-1',
          upload_url: `${server.url}/signed/job-1?signature=s3cr3t`,
          expires_at: 'x',
        }),
      'PUT /signed/job-1': (_request, res) => res.writeHead(200).end(),
      'GET /v3/translation_memories/jobs/job-1': (_request, res) => {
        polls++;
        sendJson(
          res,
          200,
          job('job-1', { status: polls < 3 ? 'processing' : 'completed', translation_memory_id: 'tm-1' }),
        );
      },
    });
    const result = await client().translationMemories.import(TMX, { fileName: 'ui.tmx', pollInterval: 1 });
    expect(result).toEqual({ status: 'completed', translation_memory_id: 'tm-1' });
    expect(calls()).toEqual([
      'POST /v3/translation_memories/import',
      'PUT /signed/job-1',
      'GET /v3/translation_memories/jobs/job-1',
      'GET /v3/translation_memories/jobs/job-1',
      'GET /v3/translation_memories/jobs/job-1',
    ]);
    const [create, upload] = server.requests;
    expect(create?.headers.authorization).toBe(`Service-Auth-Key ${KEY}`);
    expect(jsonOf(create)).toEqual({
      source_file: { file_name: 'ui.tmx', content_length: TMX.length, content_type: 'application/x-tmx+xml' },
      parameters: { display_name: 'ui.tmx' },
    });
    expect(upload?.headers.authorization).toBeUndefined();
    expect(upload?.headers['content-type']).toBe('application/x-tmx+xml');
    expect(upload?.body.equals(TMX)).toBe(true);
    expect(logLines.join('\n')).not.toContain('s3cr3t');
  });

  it('throws JobFailedError with the job message when the import fails', async () => {
    server.routes({
      'POST /v3/translation_memories/import': (_request, res) =>
        sendJson(res, 200, { job_id: 'job-2', upload_url: '/signed/job-2', expires_at: 'x' }),
      'PUT /signed/job-2': (_request, res) => res.writeHead(200).end(),
      'GET /v3/translation_memories/jobs/job-2': (_request, res) =>
        sendJson(res, 200, job('job-2', { status: 'failed', error: { message: 'bad TMX at line 3' } })),
    });
    const error = await client()
      .translationMemories.import(TMX, { fileName: 'ui.tmx', pollInterval: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as JobFailedError).message).toBe('Translation memory job job-2 ended: bad TMX at line 3');
    expect((error as JobFailedError).jobId).toBe('job-2');
  });

  it('exports: polls the job, downloads from the signed URL without the key, writes the file', async () => {
    server.routes({
      'POST /v3/translation_memories/tm-1/export': (_request, res) =>
        sendJson(res, 202, { job_id: 'job-3', parameters: { translation_memory_id: 'tm-1' } }),
      'GET /v3/translation_memories/jobs/job-3': (_request, res) =>
        sendJson(
          res,
          200,
          job('job-3', { status: 'completed', download_url: `${server.url}/signed/dl?signature=z` }),
        ),
      'GET /signed/dl': (_request, res) =>
        res.writeHead(200, { 'content-type': 'application/x-tmx+xml' }).end(TMX),
    });
    const output = join(work, 'export.tmx');
    expect(await client().translationMemories.export('tm-1', output, { pollInterval: 1 })).toBe(output);
    expect((await readFile(output)).equals(TMX)).toBe(true);
    expect(server.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('iterates segments across cursor pages, fetching each page only when needed', async () => {
    const pages: Record<string, [string[], string | null]> = {
      '': [['a', 'b'], 'c2'],
      c2: [['c', 'd'], 'c3'],
      c3: [['e'], null],
    };
    server.routes({
      'GET /v3/translation_memories/tm-1/segments': (request, res) => {
        const [texts, next] = pages[request.query.get('page_cursor') ?? ''] ?? [[], null];
        const segments = texts.map((text) => ({ source_segment_id: text, source_text: text, targets: [] }));
        sendJson(res, 200, { segments, segment_count: 5, next_page_cursor: next });
      },
    });
    const iterator = client().translationMemories.segments('tm-1', { pageSize: 2 });
    const first = await iterator.next();
    expect(first.value?.source_text).toBe('a');
    expect(server.requests).toHaveLength(1);
    const rest: string[] = [];
    for await (const segment of iterator) rest.push(segment.source_text);
    expect(rest).toEqual(['b', 'c', 'd', 'e']);
    expect(server.requests.map((request) => request.query.toString())).toEqual([
      'page_size=2',
      'page_size=2&page_cursor=c2',
      'page_size=2&page_cursor=c3',
    ]);
  });
});

describe('custom-tag analytics paging, against a scripted loopback service (fake)', () => {
  it('follows next_page until it is null', async () => {
    server.routes({
      'GET /v2/admin/analytics/custom-tags': (request, res) => {
        const page = request.query.get('page');
        const tag = page === null ? 'first' : `page-${page}`;
        const next = page === null ? 2 : page === '2' ? 5 : null;
        sendJson(res, 200, {
          custom_tag_usage_report: {
            aggregate_by: 'period',
            start_date: '2026-01-01T00:00:00Z',
            end_date: '2026-01-31T00:00:00Z',
            next_page: next,
            usage: [{ custom_tag: tag, breakdown: { total_characters: 1 } }],
          },
        });
      },
    });
    const tags: string[] = [];
    for await (const entry of client().customTagUsage({ startDate: '2026-01-01', endDate: '2026-01-31' })) {
      tags.push(entry.custom_tag);
    }
    expect(tags).toEqual(['first', 'page-2', 'page-5']);
    expect(server.requests[0]?.query.toString()).toBe('start_date=2026-01-01&end_date=2026-01-31');
  });
});

describe('document translation, against a scripted loopback service (fake: failures on cue)', () => {
  const id = 'a'.repeat(32);
  const documentKey = 'b'.repeat(64);
  const documentRoutes = (
    statuses: Record<string, unknown>[],
    result: (res: import('node:http').ServerResponse) => void,
  ) => {
    let polls = 0;
    server.routes({
      'POST /v2/document': (_request, res) =>
        sendJson(res, 200, { document_id: id, document_key: documentKey }),
      [`POST /v2/document/${id}`]: (_request, res) =>
        sendJson(res, 200, { document_id: id, ...statuses[Math.min(polls++, statuses.length - 1)] }),
      [`POST /v2/document/${id}/result`]: (_request, res) => result(res),
    });
  };

  it('uploads multipart, polls with the key, downloads, writes the output', async () => {
    documentRoutes(
      [
        { status: 'queued' },
        { status: 'translating', seconds_remaining: 0 },
        { status: 'done', billed_characters: 5 },
      ],
      (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('[Ĥéļļö]\n'),
    );
    const output = join(work, 'out.txt');
    const status = await client().translateDocument(Buffer.from('Hello\n'), output, {
      targetLang: 'en-XA',
      fileName: 'a.txt',
      glossaryIds: ['g1', 'g2'],
      pollInterval: 1,
    });
    expect(status).toEqual({ document_id: id, status: 'done', billed_characters: 5 });
    expect(await readFile(output, 'utf8')).toBe('[Ĥéļļö]\n');
    const [upload, poll] = server.requests;
    expect(upload?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = upload?.body.toString('utf8') ?? '';
    expect(form).toContain('name="target_lang"\r\n\r\nen-XA\r\n');
    expect(form).toContain('name="glossary_ids"\r\n\r\ng1,g2\r\n');
    expect(form).toMatch(
      /name="file"; filename="a.txt"\r\nContent-Type: application\/octet-stream\r\n\r\nHello\n/,
    );
    expect(jsonOf(poll)).toEqual({ document_key: documentKey });
    expect(calls().filter((call) => call === `POST /v2/document/${id}`)).toHaveLength(3);
  });

  it('throws JobFailedError when the document fails, leaving an existing output untouched', async () => {
    documentRoutes([{ status: 'error', error_message: 'engine crashed' }], (res) =>
      sendJson(res, 404, { message: 'gone' }),
    );
    const output = join(work, 'kept.txt');
    await writeFile(output, 'previous run');
    const error = await client()
      .translateDocument(Buffer.from('Hello\n'), output, {
        targetLang: 'en-XA',
        fileName: 'a.txt',
        pollInterval: 1,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as Error).message).toBe(`Document ${id} failed: engine crashed`);
    expect(await readFile(output, 'utf8')).toBe('previous run');
  });

  it('deletes the partial output when the download is cut off (the retry finds it already taken)', async () => {
    let downloads = 0;
    documentRoutes([{ status: 'done' }], (res) => {
      if (downloads++ > 0) return sendJson(res, 404, { message: 'Document already downloaded' });
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write('partial bytes');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const dir = await mkdtemp(join(work, 'cut-'));
    const error = await client()
      .translateDocument(Buffer.from('Hello\n'), join(dir, 'out.txt'), {
        targetLang: 'en-XA',
        fileName: 'a.txt',
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(downloads).toBe(2);
    expect(await readdir(dir)).toEqual([]);
  });

  it('gives up with JobTimeoutError after maxWait', async () => {
    documentRoutes([{ status: 'translating' }], (res) => sendJson(res, 503, { message: 'not ready' }));
    const error = await client()
      .translateDocument(Buffer.from('x'), join(work, 'slow.txt'), {
        targetLang: 'en-XA',
        fileName: 'a.txt',
        pollInterval: 5,
        maxWait: 30,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobTimeoutError);
    expect((error as Error).message).toBe(`Document ${id} did not finish within 30 ms`);
  });
});
