import { readFileSync } from 'node:fs';
import { STYLE_RULE_OPTIONS } from '@glossa/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
});
afterAll(async () => {
  await t.close();
});

const create = (body: Record<string, unknown> = {}, key?: string) =>
  t.call('/v3/style_rules', {
    json: { name: 'house', language: 'en', ...body },
    ...(key === undefined ? {} : { key }),
  });

describe('style rule lists', () => {
  it('create → 201 at version 1; every change increments the version', async () => {
    const created = await create({
      configured_rules: { dates_and_times: { calendar_era: 'use_bc_and_ad' } },
      custom_instructions: [{ label: 'Tone', prompt: 'Be friendly.', source_language: 'de' }],
    });
    expect(created.status).toBe(201);
    const list = created.data;
    expect(list).toMatchObject({ name: 'house', language: 'en', version: 1 });
    expect(list.style_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(list.custom_instructions).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        label: 'Tone',
        prompt: 'Be friendly.',
        source_language: 'de',
      },
    ]);
    const path = `/v3/style_rules/${list.style_id}`;

    const renamed = await t.call(path, { method: 'PATCH', json: { name: 'house 2' } });
    expect(renamed.data).toMatchObject({ name: 'house 2', version: 2 });
    const rules = await t.call(`${path}/configured_rules`, {
      method: 'PUT',
      json: { punctuation: { periods_in_academic_degrees: 'do_not_use' } },
    });
    expect(rules.status).toBe(200);
    expect(rules.data.version).toBe(3);
    expect(rules.data.configured_rules).toEqual({
      punctuation: { periods_in_academic_degrees: 'do_not_use' },
    });
    expect(rules.data.custom_instructions).toHaveLength(1);

    const added = await t.call(`${path}/custom_instructions`, {
      json: { label: 'l', prompt: 'Use "sign in" instead of "log in"' },
    });
    expect(added.status).toBe(201);
    expect(added.data).toEqual({
      id: expect.any(String),
      label: 'l',
      prompt: 'Use "sign in" instead of "log in"',
    });
    const replaced = await t.call(`${path}/custom_instructions/${added.data.id}`, {
      method: 'PUT',
      json: { label: 'l2', prompt: 'Use "sign in" instead of "login"', source_language: 'de' },
    });
    expect(replaced.data).toEqual({
      id: added.data.id,
      label: 'l2',
      prompt: 'Use "sign in" instead of "login"',
      source_language: 'de',
    });
    const got = await t.call(`${path}/custom_instructions/${added.data.id}`);
    expect(got.status).toBe(200);
    expect(got.data).toEqual(replaced.data);
    expect((await t.call(`${path}/custom_instructions/${added.data.id}`, { key: 'wrong-key' })).status).toBe(
      403,
    );
    const longLabel = await t.call(`${path}/custom_instructions`, {
      json: { label: 'l'.repeat(101), prompt: 'p' },
    });
    expect(longLabel.status).toBe(400);
    expect(longLabel.data.message).toBe("Parameter 'label' is too long (at most 100 characters).");
    const removed = await t.call(`${path}/custom_instructions/${added.data.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await t.call(`${path}/custom_instructions/${added.data.id}`, { method: 'DELETE' })).status).toBe(
      404,
    );
    expect((await t.call(`${path}/custom_instructions/${added.data.id}`)).status).toBe(404);

    const current = await t.call(path);
    expect(current.data.version).toBe(6);
    expect(current.data.custom_instructions.map((item: { prompt: string }) => item.prompt)).toEqual([
      'Be friendly.',
    ]);
    expect(Date.parse(current.data.updated_time)).toBeGreaterThanOrEqual(
      Date.parse(current.data.creation_time),
    );

    expect((await t.call(path, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(path)).status).toBe(404);
  });

  it('pages with page and page_size (≤25); detailed adds rules and instructions', async () => {
    const account = await t.server.createAccount({ plan: 'paid' });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await create({ name: `list ${i}` }, account.key)).data.style_id);
    const as = { key: account.key };
    const first = await t.call('/v3/style_rules', as);
    expect(first.data.style_rules.map((list: { style_id: string }) => list.style_id)).toEqual(
      ids.slice(0, 10),
    );
    expect(first.data.style_rules[0].configured_rules).toBeUndefined();
    const second = await t.call('/v3/style_rules?page=1&page_size=5&detailed=true', as);
    expect(second.data.style_rules.map((list: { style_id: string }) => list.style_id)).toEqual(
      ids.slice(5, 10),
    );
    expect(second.data.style_rules[0]).toMatchObject({ configured_rules: {}, custom_instructions: [] });
    expect((await t.call('/v3/style_rules?page=2&page_size=5', as)).data.style_rules).toHaveLength(2);
    expect((await t.call('/v3/style_rules?page_size=26', as)).status).toBe(400);
    expect((await t.call('/v3/style_rules?page_size=0', as)).status).toBe(400);
  });

  it('limits: 200 instructions per list, 300 characters per prompt, known rule values', async () => {
    const instructions = Array.from({ length: 200 }, (_, i) => ({ label: `l${i}`, prompt: `Rule ${i}.` }));
    const full = await create({ custom_instructions: instructions });
    expect(full.status).toBe(201);
    const more = await t.call(`/v3/style_rules/${full.data.style_id}/custom_instructions`, {
      json: { label: 'x', prompt: 'One more.' },
    });
    expect(more.status).toBe(400);
    expect(more.data.message).toBe('A style rule list holds at most 200 custom instructions.');
    expect(
      (await create({ custom_instructions: [...instructions, { label: 'x', prompt: 'y' }] })).status,
    ).toBe(400);

    const id = (await create()).data.style_id;
    const prompt300 = await t.call(`/v3/style_rules/${id}/custom_instructions`, {
      json: { label: 'x', prompt: 'x'.repeat(300) },
    });
    expect(prompt300.status).toBe(201);
    const prompt301 = await t.call(`/v3/style_rules/${id}/custom_instructions`, {
      json: { label: 'x', prompt: 'x'.repeat(301) },
    });
    expect(prompt301.status).toBe(400);

    const badValue = await create({ configured_rules: { dates_and_times: { calendar_era: 'use_ab' } } });
    expect(badValue.status).toBe(400);
    expect(badValue.data.message).toBe(
      "Value 'use_ab' is not valid for rule 'dates_and_times.calendar_era' (expected one of: use_bc_and_ad, use_bce_and_ce).",
    );
    const unknownRule = await create({ configured_rules: { tone: { warmth: 'high' } } });
    expect(unknownRule.status).toBe(201);
    expect(unknownRule.data.configured_rules).toEqual({ tone: { warmth: 'high' } });
  });

  it('accepts every category/value pair the public description declares, and names its values on a wrong one', async () => {
    // The table is the description's (the conformance package keeps the description as a fixture).
    const description = JSON.parse(
      readFileSync(
        new URL('../../conformance/test/fixtures/deepl-openapi/openapi.json', import.meta.url),
        'utf8',
      ),
    );
    const declared = description.components.schemas.ConfiguredRules.properties as Record<
      string,
      { properties: Record<string, { enum: string[] }> }
    >;
    const fromDescription = Object.fromEntries(
      Object.entries(declared).map(([category, rules]) => [
        category,
        Object.fromEntries(Object.entries(rules.properties).map(([rule, schema]) => [rule, schema.enum])),
      ]),
    );
    expect(fromDescription).toEqual(STYLE_RULE_OPTIONS);
    const id = (await create()).data.style_id;
    let pairs = 0;
    for (const [category, rules] of Object.entries(fromDescription)) {
      for (const [rule, values] of Object.entries(rules as Record<string, string[]>)) {
        for (const value of values) {
          const reply = await t.call(`/v3/style_rules/${id}/configured_rules`, {
            method: 'PUT',
            json: { [category]: { [rule]: value } },
          });
          expect(reply.status, `${category}.${rule}=${value}`).toBe(200);
          pairs++;
        }
      }
    }
    expect(pairs).toBe(518);
    const wrong = await t.call(`/v3/style_rules/${id}/configured_rules`, {
      method: 'PUT',
      json: { punctuation: { ellipsis: 'character' } },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data.message).toMatch(
      /^Value 'character' is not valid for rule 'punctuation.ellipsis' \(expected one of: use_ellipsis_character, /,
    );
  });

  it('takes the eight root languages (any case) and refuses others', async () => {
    for (const language of ['de', 'EN', 'es', 'fr', 'it', 'ja', 'ko', 'zh']) {
      const reply = await create({ language });
      expect(reply.status).toBe(201);
      expect(reply.data.language).toBe(language.toLowerCase());
    }
    expect((await create({ language: 'pt' })).status).toBe(400);
    expect((await create({ language: 'en-US' })).status).toBe(400);
  });

  it('is for paid plans only: a free key gets 403', async () => {
    const free = await t.server.createAccount({ plan: 'free' });
    const reply = await t.call('/v3/style_rules', { key: free.key, base: t.server.freeUrl });
    expect(reply.status).toBe(403);
    const post = await t.call('/v3/style_rules', {
      key: free.key,
      base: t.server.freeUrl,
      json: { name: 'x', language: 'en' },
    });
    expect(post.status).toBe(403);
  });

  it("keeps accounts apart: another account's list is a 404", async () => {
    const id = (await create()).data.style_id;
    const other = await t.server.createAccount({ plan: 'paid' });
    const as = { key: other.key };
    expect((await t.call(`/v3/style_rules/${id}`, as)).status).toBe(404);
    expect(
      (await t.call(`/v3/style_rules/${id}`, { ...as, method: 'PATCH', json: { name: 'x' } })).status,
    ).toBe(404);
    expect(
      (await t.call(`/v3/style_rules/${id}/configured_rules`, { ...as, method: 'PUT', json: {} })).status,
    ).toBe(404);
    expect(
      (
        await t.call(`/v3/style_rules/${id}/custom_instructions`, {
          ...as,
          json: { label: 'a', prompt: 'b' },
        })
      ).status,
    ).toBe(404);
    expect((await t.call(`/v3/style_rules/${id}`, { ...as, method: 'DELETE' })).status).toBe(404);
    const translated = await t.translate(
      { text: ['Hola'], source_lang: 'ES', target_lang: 'EN-US', style_id: id },
      as,
    );
    expect(translated.status).toBe(404);
    expect((await t.call(`/v3/style_rules/${id}`)).status).toBe(200);
  });
});
