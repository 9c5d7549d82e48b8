import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
});
afterAll(async () => {
  await t.close();
});

const createV2 = (entries: string, extra: Record<string, unknown> = {}, key?: string) =>
  t.call('/v2/glossaries', {
    json: { name: 'terms', source_lang: 'en', target_lang: 'es', entries, entries_format: 'tsv', ...extra },
    ...(key === undefined ? {} : { key }),
  });

describe('v2 glossaries', () => {
  it('creates, lists, reads, serves entries as TSV only, and deletes', async () => {
    const created = await createV2('file\tarchivo\nbutton\tbotón');
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      name: 'terms',
      ready: true,
      source_lang: 'en',
      target_lang: 'es',
      entry_count: 2,
    });
    const id = created.data.glossary_id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(created.data.creation_time)).not.toBeNaN();

    const listed = await t.call('/v2/glossaries');
    expect(listed.data.glossaries.map((g: { glossary_id: string }) => g.glossary_id)).toContain(id);
    expect((await t.call(`/v2/glossaries/${id}`)).data).toEqual(created.data);

    const tsv = await t.call(`/v2/glossaries/${id}/entries`, {
      headers: { accept: 'text/tab-separated-values' },
    });
    expect(tsv.status).toBe(200);
    expect(tsv.headers.get('content-type')).toMatch(/^text\/tab-separated-values/);
    expect(tsv.text).toBe('file\tarchivo\nbutton\tbotón');
    const xml = await t.call(`/v2/glossaries/${id}/entries`, { headers: { accept: 'application/xml' } });
    expect(xml.status).toBe(415);
    expect(xml.data.code).toBe('invalid_content_type');

    const deleted = await t.call(`/v2/glossaries/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.call(`/v2/glossaries/${id}`)).status).toBe(404);
    expect((await t.call(`/v2/glossaries/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('takes CSV with RFC 4180 quoting and optional language columns', async () => {
    const created = await createV2('"save, now",guardar\n"say ""hi""",saluda\nfile,archivo,en,es', {
      entries_format: 'csv',
    });
    expect(created.status).toBe(201);
    expect(created.data.entry_count).toBe(3);
    const tsv = await t.call(`/v2/glossaries/${created.data.glossary_id}/entries`);
    expect(tsv.text).toBe('save, now\tguardar\nsay "hi"\tsaluda\nfile\tarchivo');
  });

  it('takes a form-encoded body', async () => {
    const created = await t.call('/v2/glossaries', {
      form: [
        ['name', 'form'],
        ['source_lang', 'EN'],
        ['target_lang', 'DE'],
        ['entries', 'cat\tKatze'],
        ['entries_format', 'tsv'],
      ],
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ source_lang: 'en', target_lang: 'de', entry_count: 1 });
  });

  it.each([
    ['a\tb\na\tc', 'tsv', 'Line 2: duplicate source term'],
    ['a\tb\n\tc', 'tsv', 'Line 2: empty source term.'],
    ['a\tb\nx\t', 'tsv', 'Line 2: empty target term.'],
    ['a\tb\tc', 'tsv', 'Line 1: expected source<TAB>target.'],
    ['ok\tfine\nbad\u0007bell\tx', 'tsv', 'Line 2: source term contains a control or separator character.'],
    ['x\u2028y\tz', 'tsv', 'Line 1: source term contains a control or separator character.'],
    ['a\tb\nx\ty\u2029', 'tsv', 'Line 2: target term contains a control or separator character.'],
    ['a\tb\n\u000bx\ty', 'tsv', 'Line 2: source term contains a control or separator character.'],
    ['"open,b', 'csv', 'Line 1: broken CSV quoting.'],
    ['a,b\n"x"y,z', 'csv', 'Line 2: broken CSV quoting.'],
    ['a,b,en,fr', 'csv', 'Line 1: language columns do not match en-es.'],
    ['a;b', 'csv', 'Line 1: expected source,target[,source_lang,target_lang].'],
  ])('refuses malformed entries %j (%s) with a detail naming the line', async (entries, format, detail) => {
    const reply = await createV2(entries, { entries_format: format });
    expect(reply.status).toBe(400);
    expect(reply.data.message).toBe('Invalid glossary entries.');
    expect(reply.data.detail).toContain(detail);
  });

  it('enforces 1024 UTF-8 bytes per term and per name', async () => {
    const ok = 'é'.repeat(512);
    expect((await createV2(`${ok}\tx`)).status).toBe(201);
    const over = await createV2(`${ok}a\tx`);
    expect(over.status).toBe(400);
    expect(over.data.detail).toBe('Line 1: source term is longer than 1024 UTF-8 bytes.');
    expect((await createV2('a\tb', { name: 'n'.repeat(1024) })).status).toBe(201);
    const longName = await createV2('a\tb', { name: 'é'.repeat(513) });
    expect(longName.status).toBe(400);
    expect(longName.data.message).toBe("Parameter 'name' is too long (at most 1024 UTF-8 bytes).");
  });

  it('takes entries of up to 10 MiB and refuses more', async () => {
    const line = `${'x'.repeat(1000)}\t${'y'.repeat(1000)}`;
    const lines = Math.floor(10_485_760 / (line.length + 8));
    const entries = Array.from({ length: lines }, (_, i) => `${i}${line}`).join('\n');
    expect(Buffer.byteLength(entries)).toBeLessThanOrEqual(10_485_760);
    const ok = await createV2(entries);
    expect(ok.status).toBe(201);
    expect(ok.data.entry_count).toBe(lines);
    const over = await createV2(
      `${entries}\n${'z'.repeat(600)}\t${'w'.repeat(600)}${'\nq\tr'.repeat(20_000)}`,
    );
    expect(over.status).toBe(400);
    expect(over.data.detail).toBe('Entries exceed 10485760 bytes.');
    await t.call(`/v2/glossaries/${ok.data.glossary_id}`, { method: 'DELETE' });
  });

  it('refuses variant and unknown languages with a clear message', async () => {
    const variant = await createV2('a\tb', { target_lang: 'pt-BR' });
    expect(variant.status).toBe(400);
    expect(variant.data.message).toContain("send 'pt' instead of 'pt-BR'");
    expect((await createV2('a\tb', { target_lang: 'xx' })).status).toBe(400);
  });

  it('lists the deprecated glossary language pairs', async () => {
    const reply = await t.call('/v2/glossary-language-pairs');
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.data.supported_languages)).toBe(true);
  });
});

describe('v3 glossaries', () => {
  it('creates an empty glossary (JSON: an empty list; form: no dictionaries field), then fills it with PUT', async () => {
    const missing = await t.call('/v3/glossaries', { json: { name: 'no field' } });
    expect(missing.status).toBe(400);
    expect(missing.data.message).toBe(
      "Parameter 'dictionaries' is required: send a list of dictionaries ([] creates an empty glossary).",
    );
    const created = await t.call('/v3/glossaries', { json: { name: 'empty', dictionaries: [] } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ name: 'empty', dictionaries: [] });
    const form = await t.call('/v3/glossaries', { form: 'name=empty+too' });
    expect(form.status).toBe(201);
    expect(form.data.dictionaries).toEqual([]);
    const id = created.data.glossary_id;
    const put = await t.call(`/v3/glossaries/${id}/dictionaries`, {
      method: 'PUT',
      json: { source_lang: 'en', target_lang: 'es', entries: 'dog\tperro', entries_format: 'tsv' },
    });
    expect(put.status).toBe(200);
    expect((await t.call(`/v3/glossaries/${id}`)).data.dictionaries).toEqual([
      { source_lang: 'en', target_lang: 'es', entry_count: 1 },
    ]);
  });

  it('creates several dictionaries, merges with PATCH, replaces with PUT, deletes one dictionary', async () => {
    const created = await t.call('/v3/glossaries', {
      json: {
        name: 'multi',
        dictionaries: [
          { source_lang: 'en', target_lang: 'es', entries: 'car\tcoche', entries_format: 'tsv' },
          { source_lang: 'EN', target_lang: 'FR', entries: 'car,voiture', entries_format: 'csv' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const id = created.data.glossary_id;
    expect(created.data.dictionaries).toEqual([
      { source_lang: 'en', target_lang: 'es', entry_count: 1 },
      { source_lang: 'en', target_lang: 'fr', entry_count: 1 },
    ]);
    // A glossary with two dictionaries is not a v2 glossary.
    expect((await t.call(`/v2/glossaries/${id}`)).status).toBe(404);

    const patched = await t.call(`/v3/glossaries/${id}`, {
      method: 'PATCH',
      json: {
        name: 'renamed',
        dictionaries: [
          {
            source_lang: 'en',
            target_lang: 'es',
            entries: 'car\tauto\nfile\tarchivo',
            entries_format: 'tsv',
          },
        ],
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.data.name).toBe('renamed');
    const merged = await t.call(`/v3/glossaries/${id}/entries?source_lang=en&target_lang=es`);
    expect(merged.data).toEqual({
      dictionaries: [
        { source_lang: 'en', target_lang: 'es', entries: 'car\tauto\nfile\tarchivo', entries_format: 'tsv' },
      ],
    });

    const put = await t.call(`/v3/glossaries/${id}/dictionaries`, {
      method: 'PUT',
      json: { source_lang: 'en', target_lang: 'es', entries: 'dog\tperro', entries_format: 'tsv' },
    });
    expect(put.status).toBe(200);
    expect(put.data).toEqual({ source_lang: 'en', target_lang: 'es', entry_count: 1 });
    expect(
      (await t.call(`/v3/glossaries/${id}/entries?source_lang=en&target_lang=es`)).data.dictionaries[0]
        .entries,
    ).toBe('dog\tperro');

    const removed = await t.call(`/v3/glossaries/${id}/dictionaries?source_lang=en&target_lang=fr`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    expect((await t.call(`/v3/glossaries/${id}/entries?source_lang=en&target_lang=fr`)).status).toBe(404);
    expect((await t.call(`/v3/glossaries/${id}`)).data.dictionaries).toEqual([
      { source_lang: 'en', target_lang: 'es', entry_count: 1 },
    ]);
    const listed = await t.call('/v3/glossaries');
    expect(listed.data.glossaries.some((g: { glossary_id: string }) => g.glossary_id === id)).toBe(true);
    expect((await t.call(`/v3/glossaries/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/v3/glossaries/${id}`)).status).toBe(404);
  });

  it('takes form-encoded dictionaries and refuses a bad PATCH without changing anything', async () => {
    const created = await t.call('/v3/glossaries', {
      form: 'name=f&dictionaries%5B0%5D.source_lang=en&dictionaries%5B0%5D.target_lang=de&dictionaries%5B0%5D.entries=a%09b&dictionaries%5B0%5D.entries_format=tsv',
    });
    expect(created.status).toBe(201);
    const id = created.data.glossary_id;
    const bad = await t.call(`/v3/glossaries/${id}`, {
      method: 'PATCH',
      json: {
        name: 'new',
        dictionaries: [
          { source_lang: 'en', target_lang: 'de', entries: 'x\tb\nx\tc', entries_format: 'tsv' },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.data.detail).toBe("Line 2: duplicate source term 'x'.");
    expect((await t.call(`/v3/glossaries/${id}`)).data.name).toBe('f');
  });

  it("keeps accounts apart: another account's glossary is a 404 everywhere", async () => {
    const mine = await createV2('file\tarchivo');
    const other = await t.server.createAccount({ plan: 'paid' });
    const id = mine.data.glossary_id;
    const as = { key: other.key };
    expect((await t.call(`/v2/glossaries/${id}`, as)).status).toBe(404);
    expect((await t.call(`/v3/glossaries/${id}`, as)).status).toBe(404);
    expect((await t.call(`/v3/glossaries/${id}/entries?source_lang=en&target_lang=es`, as)).status).toBe(404);
    expect((await t.call(`/v3/glossaries/${id}`, { ...as, method: 'DELETE' })).status).toBe(404);
    expect(
      (await t.call(`/v3/glossaries/${id}`, { ...as, method: 'PATCH', json: { name: 'x' } })).status,
    ).toBe(404);
    expect((await t.call('/v3/glossaries', as)).data.glossaries).toEqual([]);
    const translated = await t.translate(
      { text: ['file'], source_lang: 'en', target_lang: 'es', glossary_id: id },
      as,
    );
    expect(translated.status).toBe(404);
    expect((await t.call(`/v3/glossaries/${id}`)).status).toBe(200);
  });

  it('holds at most 1000 glossaries per account (free plan included)', async () => {
    const account = await t.server.createAccount({ plan: 'free' });
    const create = () =>
      t.call('/v3/glossaries', {
        key: account.key,
        base: t.server.freeUrl,
        json: {
          name: 'g',
          dictionaries: [{ source_lang: 'en', target_lang: 'es', entries: 'a\tb', entries_format: 'tsv' }],
        },
      });
    for (let i = 0; i < 1000; i += 50) {
      const statuses = await Promise.all(Array.from({ length: 50 }, () => create().then((r) => r.status)));
      expect(statuses.every((status) => status === 201)).toBe(true);
    }
    const over = await create();
    expect(over.status).toBe(400);
    expect(over.data.message).toBe(
      'Too many glossaries: an account can hold at most 1000. Delete one first.',
    );
    const list = await t.call('/v3/glossaries', { key: account.key, base: t.server.freeUrl });
    expect(list.data.glossaries).toHaveLength(1000);
  }, 60_000);
});
