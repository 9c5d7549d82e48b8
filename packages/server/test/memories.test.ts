import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { importTmx, tmx, waitForJob } from './memory-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
});
afterAll(async () => {
  await t.close();
});

const UNITS = [
  ['Your changes have been saved.', 'Se han guardado sus cambios.'],
  ['The file could not be uploaded.', 'No se pudo cargar el archivo.'],
  ['Save &amp; close', 'Guardar y cerrar'],
  ['Open the <bpt i="1">&lt;b&gt;</bpt>settings<ept i="1">&lt;/b&gt;</ept>.', 'Abra la configuración.'],
  ['Delete the file.', 'Elimine el archivo.'],
] as const;

describe('translation memory import', () => {
  it('job awaiting_input → upload without a key → completed; get, list, segments, delete', async () => {
    const started = await t.call('/v3/translation_memories/import', {
      json: {
        source_file: { file_name: 'ui.tmx', content_length: Buffer.byteLength(tmx(UNITS)) },
        parameters: { display_name: 'UI' },
      },
    });
    expect(started.status).toBe(202);
    expect(started.data.upload_url).toMatch(
      /\/v3\/translation_memories\/jobs\/[0-9a-f-]{36}\/upload\?expires=\d+&signature=[0-9a-f]{64}$/,
    );
    expect(Date.parse(started.data.expires_at)).toBeGreaterThan(Date.now());
    const waiting = await t.call(`/v3/translation_memories/jobs/${started.data.job_id}`);
    expect(waiting.data).toMatchObject({
      job_id: started.data.job_id,
      operation: 'import',
      results: [{ status: 'awaiting_input' }],
    });
    // Another account's key: 404, as for a job that does not exist.
    const other = await t.server.createAccount({ plan: 'paid' });
    const hidden = await t.call(`/v3/translation_memories/jobs/${started.data.job_id}`, { key: other.key });
    expect(hidden.status).toBe(404);

    const put = await fetch(started.data.upload_url, {
      method: 'PUT',
      body: tmx(UNITS),
      headers: { 'content-type': 'application/xml' },
    });
    expect(put.status).toBe(204);
    const done = await waitForJob(t, started.data.job_id);
    expect(done.result).toEqual({
      status: 'completed',
      translation_memory_id: expect.any(String),
      skipped_segment_count: 0,
    });
    const id = done.result.translation_memory_id;

    const memory = await t.call(`/v3/translation_memories/${id}`);
    expect(memory.data).toEqual({
      translation_memory_id: id,
      name: 'UI',
      source_language: 'en',
      target_languages: ['es'],
      segment_count: 5,
    });
    const list = await t.call('/v3/translation_memories');
    // page_size is 1 to 25 (the public description's bounds).
    expect((await t.call('/v3/translation_memories?page_size=25')).status).toBe(200);
    const over = await t.call('/v3/translation_memories?page_size=26');
    expect(over.status).toBe(400);
    expect(over.data.message).toBe("Parameter 'page_size' must be between 1 and 25.");
    expect(list.data.translation_memories).toContainEqual(memory.data);
    expect(list.data.total_count).toBeGreaterThanOrEqual(1);

    const sources: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await t.call(
        `/v3/translation_memories/${id}/segments?page_size=2${cursor ? `&page_cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.data.segment_count).toBe(5);
      for (const segment of page.data.segments) sources.push(segment.source_text);
      cursor = page.data.next_page_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(sources).toEqual([
      'Your changes have been saved.',
      'The file could not be uploaded.',
      'Save & close',
      'Open the settings.',
      'Delete the file.',
    ]);
    const filtered = await t.call(`/v3/translation_memories/${id}/segments?filter_text=archivo`);
    expect(filtered.data.segment_count).toBe(2);
    expect(filtered.data.segments[0]).toMatchObject({
      source_text: 'The file could not be uploaded.',
      targets: [
        {
          target_language: 'es',
          target_text: 'No se pudo cargar el archivo.',
          target_segment_id: expect.any(String),
        },
      ],
    });
    expect(filtered.data.next_page_cursor).toBeNull();
    expect((await t.call(`/v3/translation_memories/${id}/segments?page_cursor=nonsense`)).status).toBe(400);
    expect((await t.call(`/v3/translation_memories/${id}/segments?page_size=101`)).status).toBe(400);

    expect((await t.call(`/v3/translation_memories/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/v3/translation_memories/${id}`)).status).toBe(404);
    expect((await t.call(`/v3/translation_memories/${id}/segments`)).status).toBe(404);
  });

  it('the upload URL is the credential: a changed signature or job is a 403; a second upload a 409', async () => {
    const content = tmx(UNITS);
    const started = await t.call('/v3/translation_memories/import', {
      json: { source_file: { file_name: 'a.tmx', content_length: Buffer.byteLength(content) } },
    });
    const url = new URL(started.data.upload_url);
    const tampered = `${url.origin}${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${'0'.repeat(64)}`;
    expect((await fetch(tampered, { method: 'PUT', body: content })).status).toBe(403);
    const later = `${url.origin}${url.pathname}?expires=${Number(url.searchParams.get('expires')) + 1}&signature=${url.searchParams.get('signature')}`;
    expect((await fetch(later, { method: 'PUT', body: content })).status).toBe(403);
    expect((await fetch(`${url.href}`, { method: 'PUT', body: content })).status).toBe(204);
    const again = await fetch(url.href, { method: 'PUT', body: content });
    expect(again.status).toBe(409);
    // Done before the next test counts memories (on PostgreSQL the import waits for a pg-boss worker).
    expect((await waitForJob(t, started.data.job_id)).status).toBe('completed');
  });

  it('/metrics counts the jobs queued or running', async () => {
    const started = await t.call('/v3/translation_memories/import', {
      json: { source_file: { file_name: 'm.tmx', content_length: Buffer.byteLength(tmx(UNITS)) } },
    });
    expect(started.status).toBe(202);
    const gauge = async () =>
      /^glossa_memory_jobs_processing (\d+)$/m.exec((await t.call('/metrics', { key: null })).text)?.[1];
    expect(await gauge()).toBe('0');
    const upload = await fetch(started.data.upload_url, { method: 'PUT', body: tmx(UNITS) });
    expect(upload.status).toBe(204);
    expect((await waitForJob(t, started.data.job_id)).status).toBe('completed');
    expect(await gauge()).toBe('0');
  });

  it('an upload URL expires after an hour, and so does its job', async () => {
    const content = tmx(UNITS);
    const started = await t.call('/v3/translation_memories/import', {
      json: { source_file: { file_name: 'late.tmx', content_length: Buffer.byteLength(content) } },
    });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60 * 1000 });
    try {
      const late = await fetch(started.data.upload_url, { method: 'PUT', body: content });
      expect(late.status).toBe(403);
      expect(((await late.json()) as { message: string }).message).toBe(
        'This URL has expired; start a new job.',
      );
      const job = await t.call(`/v3/translation_memories/jobs/${started.data.job_id}`);
      expect(job.data.results[0].status).toBe('expired');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a 200 MB TMX when the import is started, and an upload longer than announced', async () => {
    const huge = await t.call('/v3/translation_memories/import', {
      json: { source_file: { file_name: 'huge.tmx', content_length: 200 * 1024 * 1024 } },
    });
    expect(huge.status).toBe(413);
    expect(huge.data.message).toBe(
      'TMX file too large: 209715200 bytes announced, the limit is 104857600 bytes (100 MiB). Split the memory into several files.',
    );
    const started = await t.call('/v3/translation_memories/import', {
      json: { source_file: { file_name: 'small.tmx', content_length: 1000 } },
    });
    const over = await fetch(started.data.upload_url, {
      method: 'PUT',
      body: Buffer.alloc(2 * 1024 * 1024, 0x20),
    });
    expect(over.status).toBe(413);
    expect(
      (await t.call(`/v3/translation_memories/jobs/${started.data.job_id}`)).data.results[0].status,
    ).toBe('awaiting_input');
  });

  it.each([
    [
      'an external entity',
      '<?xml version="1.0"?><!DOCTYPE tmx [<!ENTITY x SYSTEM "file:///etc/passwd">]><tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>&x;</seg></tuv><tuv xml:lang="es"><seg>a</seg></tuv></tu></body></tmx>',
      'TMX files whose document type declaration (DTD) declares entities or elements are refused',
    ],
    [
      'an entity-expansion bomb',
      `<?xml version="1.0"?><!DOCTYPE tmx [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]><tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>&j;</seg></tuv><tuv xml:lang="es"><seg>b</seg></tuv></tu></body></tmx>`,
      'document type declaration (DTD) declares entities or elements are refused',
    ],
    [
      'an internal subset after a system literal holding a bracket',
      '<?xml version="1.0"?><!DOCTYPE tmx SYSTEM "tmx[1].dtd" [<!ENTITY x "y">]><tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>&x;</seg></tuv><tuv xml:lang="es"><seg>a</seg></tuv></tu></body></tmx>',
      'document type declaration (DTD) declares entities or elements are refused',
    ],
    [
      'an undeclared entity',
      '<tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>&x;</seg></tuv><tuv xml:lang="es"><seg>a</seg></tuv></tu></body></tmx>',
      'Not well-formed XML',
    ],
    ['broken XML', '<tmx version="1.4"><header srclang="en"/><body><tu><tuv', 'Not well-formed XML'],
    [
      'nesting deeper than 32',
      `<tmx><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>${'<hi>'.repeat(40)}x${'</hi>'.repeat(40)}</seg></tuv></tu></body></tmx>`,
      'Elements nested deeper than 32',
    ],
    ['another root element', '<html><body/></html>', 'The root element is <html>, not <tmx>'],
    [
      'no usable unit',
      '<tmx><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>a</seg></tuv></tu></body></tmx>',
      'no usable translation unit (1 skipped)',
    ],
    ['invalid UTF-8', Buffer.from([0x3c, 0x74, 0x6d, 0x78, 0x3e, 0xff, 0xfe, 0x3c]), 'not valid UTF-8'],
    [
      'an encoding the server does not read',
      '<?xml version="1.0" encoding="x-glossa-unknown"?><tmx version="1.4"><header srclang="en"/><body/></tmx>',
      "The file's encoding, x-glossa-unknown, is not one this server reads",
    ],
  ])('fails the job on %s, with a message, and stores nothing', async (_name, content, message) => {
    const before = (await t.call('/v3/translation_memories')).data.total_count;
    const job = await importTmx(t, content);
    expect(job.upload).toBe(204);
    expect(job.status).toBe('failed');
    expect(job.result.error.message).toContain(message);
    expect(JSON.stringify(job.result)).not.toContain('root:');
    expect((await t.call('/v3/translation_memories')).data.total_count).toBe(before);
  });

  it.each([
    ['UTF-16LE', (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
    [
      'UTF-16BE',
      (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]),
    ],
  ])('imports a %s file (told by its byte-order mark)', async (_name, encode) => {
    const text = tmx(UNITS).replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const job = await importTmx(t, encode(text));
    expect(job.result).toMatchObject({ status: 'completed', skipped_segment_count: 0 });
    const segments = await t.call(`/v3/translation_memories/${job.result.translation_memory_id}/segments`);
    expect(JSON.stringify(segments.data)).toContain('Se han guardado sus cambios.');
  });

  it('reads a file in the single-byte encoding its XML declaration names (ISO-8859-1)', async () => {
    const text = tmx([['The café is open.', 'El café está abierto.']]).replace(
      'encoding="UTF-8"',
      "encoding='ISO-8859-1'",
    );
    const job = await importTmx(t, Buffer.from(text, 'latin1'));
    expect(job.result).toMatchObject({ status: 'completed', skipped_segment_count: 0 });
    const segments = await t.call(`/v3/translation_memories/${job.result.translation_memory_id}/segments`);
    expect(segments.data.segments[0]).toMatchObject({
      source_text: 'The café is open.',
      targets: [{ target_text: 'El café está abierto.' }],
    });
  });

  it('counts units without a source or a target as skipped', async () => {
    const content = tmx(UNITS).replace(
      '</body>',
      '<tu><tuv xml:lang="fr"><seg>Bonjour</seg></tuv><tuv xml:lang="es"><seg>Hola</seg></tuv></tu><tu><tuv xml:lang="en"><seg>Alone</seg></tuv></tu></body>',
    );
    const job = await importTmx(t, content);
    // The fr → es unit has no English source and "Alone" no target.
    expect(job.result).toMatchObject({ status: 'completed', skipped_segment_count: 2 });
    const memory = await t.call(`/v3/translation_memories/${job.result.translation_memory_id}`);
    expect(memory.data.segment_count).toBe(5);
  });

  it('takes the variant the header names as a unit’s source, wherever it stands among its language’s', async () => {
    // Real files (the LISA kit's ImportTest1J) hold en-GB before en-US in a unit of an en-US memory.
    const content = `<?xml version="1.0"?><!DOCTYPE tmx SYSTEM "tmx14.dtd"><tmx version="1.4"><header srclang="en-US"/><body>
      <tu><tuv xml:lang="en-GB"><seg>The colour</seg></tuv><tuv xml:lang="EN_us"><seg>The color</seg></tuv><tuv xml:lang="es-ES"><seg>El color</seg></tuv></tu>
      <tu><tuv xml:lang="en-GB"><seg>Only British</seg></tuv><tuv xml:lang="es"><seg>Solo británico</seg></tuv></tu>
    </body></tmx>`;
    const job = await importTmx(t, content);
    expect(job.result).toMatchObject({ status: 'completed', skipped_segment_count: 0 });
    const segments = await t.call(`/v3/translation_memories/${job.result.translation_memory_id}/segments`);
    expect(
      segments.data.segments.map((segment: { source_text: string; targets: { target_text: string }[] }) => [
        segment.source_text,
        segment.targets.map((target) => target.target_text),
      ]),
    ).toEqual([
      ['The color', ['El color']],
      // No en-US text: the first of its language stands for it.
      ['Only British', ['Solo británico']],
    ]);
  });
});
