import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInstruction } from '../src/style-rules/instructions.js';
import { applyConfiguredRules } from '../src/style-rules/rules.js';
import { startTestServer, type TestServer } from './helpers.js';

describe('configured rules as post-editing (every documented rule)', () => {
  it.each([
    [
      'en',
      { dates_and_times: { calendar_era: 'use_bc_and_ad' } },
      'From 44 BCE to 79 CE.',
      'From 44 BC to 79 AD.',
    ],
    [
      'en',
      { dates_and_times: { calendar_era: 'use_bce_and_ce' } },
      'From 44 BC to AD 79.',
      'From 44 BCE to CE 79.',
    ],
    [
      'de',
      { dates_and_times: { calendar_era: 'use_bc_and_ad' } },
      'Im Jahr 44 v. u. Z.',
      'Im Jahr 44 v. Chr.',
    ],
    ['es', { dates_and_times: { calendar_era: 'use_bce_and_ce' } }, 'En el 44 a. C.', 'En el 44 a. e. c.'],
    ['fr', { dates_and_times: { calendar_era: 'use_bc_and_ad' } }, 'En 44 av. n. è.', 'En 44 av. J.-C.'],
    [
      'en',
      { dates_and_times: { time_format: 'use_24_hour_clock' } },
      'At 3:30 PM and 9 a.m.',
      'At 15:30 and 09:00',
    ],
    [
      'en',
      { dates_and_times: { time_format: 'use_12_hour_clock_and_uppercase_am_or_pm_without_periods' } },
      'At 15:30 and 09:05.',
      'At 3:30 PM and 9:05 AM.',
    ],
    [
      'en',
      { punctuation: { periods_in_academic_degrees: 'do_not_use' } },
      'She has a Ph.D. in physics.',
      'She has a PhD in physics.',
    ],
    [
      'en',
      { punctuation: { periods_in_academic_degrees: 'do_not_use' } },
      'An M.B.A. Then a B.Sc.',
      'An MBA. Then a BSc.',
    ],
    [
      'en',
      { punctuation: { periods_in_academic_degrees: 'use' } },
      'She has a PhD. And an MBA',
      'She has a Ph.D. And an M.B.A.',
    ],
    ['en', { punctuation: { ellipsis: 'use_ellipsis_character' } }, 'Wait... what....', 'Wait… what....'],
    ['en', { punctuation: { ellipsis: 'use_three_periods' } }, 'Wait…', 'Wait...'],
    [
      'de',
      { punctuation: { quotation_mark: 'use_curly_quotation_marks' } },
      'Er sagte "Hallo" und "Tschüss".',
      'Er sagte „Hallo“ und „Tschüss“.',
    ],
    [
      'fr',
      { punctuation: { quotation_mark: 'use_curly_quotation_marks' } },
      'Il a dit "oui".',
      'Il a dit «\u00a0oui\u00a0».',
    ],
    [
      'en',
      { punctuation: { quotation_mark: 'use_straight_quotation_marks' } },
      'He said “hi”.',
      'He said "hi".',
    ],
    [
      'fr',
      { punctuation: { space_before_high_punctuation: 'use' } },
      'Bonjour: ça va? Oui!',
      'Bonjour\u00a0: ça va\u202f? Oui\u202f!',
    ],
    [
      'fr',
      { punctuation: { space_before_high_punctuation: 'do_not_use' } },
      'Bonjour : ça va ?',
      'Bonjour: ça va?',
    ],
    ['fr', { numbers: { percent_sign_spacing: 'space' } }, '50% de plus', '50\u00a0% de plus'],
    ['en', { numbers: { percent_sign_spacing: 'no_space' } }, '50 % more', '50% more'],
    [
      'en',
      { spelling: { english_variant: 'british' } },
      'The Color was organized in the center.',
      'The Colour was organised in the centre.',
    ],
    [
      'en',
      { spelling: { english_variant: 'american' } },
      'Favourite colours, catalogue, travelling.',
      'Favorite colors, catalog, traveling.',
    ],
    ['de', { spelling: { english_variant: 'british' } }, 'color', 'color'],
    ['en', { tone: { warmth: 'high' } }, 'Unchanged.', 'Unchanged.'],
  ])('%s %j: %j → %j', (language, rules, input, output) => {
    expect(applyConfiguredRules(input, rules, language)).toBe(output);
  });
});

describe('custom instructions: the deterministic subset', () => {
  it.each([
    ['Use "sign in" instead of "log in"', { kind: 'prefer', use: 'sign in', instead: 'log in' }],
    ['Always use “email”, not “e-mail”.', { kind: 'prefer', use: 'email', instead: 'e-mail' }],
    ['Replace "client" with "customer"', { kind: 'prefer', use: 'customer', instead: 'client' }],
    ['use car rather than automobile', { kind: 'prefer', use: 'car', instead: 'automobile' }],
    ['Do not translate "Glossa"', { kind: 'keep', term: 'Glossa' }],
    ["Don't translate Acme Cloud.", { kind: 'keep', term: 'Acme Cloud' }],
    ['Keep "Firefox" untranslated', { kind: 'keep', term: 'Firefox' }],
    ['Be friendly and concise.', undefined],
  ])('%j', (prompt, parsed) => {
    expect(parseInstruction(prompt)).toEqual(parsed);
  });
});

describe('style lists and instructions applied in /v2/translate (real Apertium)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  const list = async (language: string, body: Record<string, unknown>) => {
    const reply = await t.call('/v3/style_rules', { json: { name: 's', language, ...body } });
    expect(reply.status).toBe(201);
    return reply.data.style_id as string;
  };

  it('an en list applies to EN-US and EN-GB: academic degrees without periods', async () => {
    const id = await list('en', {
      configured_rules: { punctuation: { periods_in_academic_degrees: 'do_not_use' } },
    });
    for (const target of ['EN-US', 'EN-GB']) {
      const reply = await t.translate({
        text: ['Ella tiene un Ph.D. en física.'],
        source_lang: 'ES',
        target_lang: target,
        style_id: id,
      });
      expect(reply.status).toBe(200);
      expect(reply.data.translations[0].text).toMatch(/\bPhD\b/);
      expect(reply.data.translations[0].text).not.toContain('Ph.D.');
    }
  });

  it('a list for another language is a 400', async () => {
    const id = await list('de', {});
    const reply = await t.translate({
      text: ['Hola'],
      source_lang: 'ES',
      target_lang: 'EN-US',
      style_id: id,
    });
    expect(reply.status).toBe(400);
    expect(reply.data.message).toBe(`Style rule list '${id}' is for de, not for target language EN-US.`);
  });

  it('applies "use X instead of Y" and "do not translate X" from the list and from the request', async () => {
    const plain = await t.translate({
      text: ['The file is in the window.'],
      source_lang: 'EN',
      target_lang: 'ES',
    });
    const machine = plain.data.translations[0].text as string;
    expect(machine).toMatch(/ventana/);
    const id = await list('es', {
      custom_instructions: [{ label: 'term', prompt: 'Use "ventanilla" instead of "ventana"' }],
    });
    const reply = await t.translate({
      text: ['The file is in the window.'],
      source_lang: 'EN',
      target_lang: 'ES',
      style_id: id,
      custom_instructions: ['Do not translate "file"'],
    });
    const text = reply.data.translations[0].text as string;
    expect(text).toContain('ventanilla');
    expect(text).toMatch(/\bfile\b/);
    expect(text).not.toMatch(/lima/i);
  });

  it('post-editing never changes a glossary term', async () => {
    const glossary = await t.call('/v2/glossaries', {
      json: {
        name: 'g',
        source_lang: 'en',
        target_lang: 'es',
        entries: 'file\tarchivo',
        entries_format: 'tsv',
      },
    });
    const reply = await t.translate({
      text: ['The file is ready.'],
      source_lang: 'EN',
      target_lang: 'ES',
      glossary_id: glossary.data.glossary_id,
      custom_instructions: ['Use "fichero" instead of "archivo"'],
    });
    expect(reply.data.translations[0].text).toMatch(/\barchivo\b/);
    expect(reply.data.translations[0].text).not.toContain('fichero');
  });

  it('leaves instructions for another source language out', async () => {
    const id = await list('es', {
      custom_instructions: [
        { label: 'term', prompt: 'Use "ventanilla" instead of "ventana"', source_language: 'fr' },
      ],
    });
    const reply = await t.translate({
      text: ['The window.'],
      source_lang: 'EN',
      target_lang: 'ES',
      style_id: id,
    });
    expect(reply.data.translations[0].text).toMatch(/ventana\b/);
  });
});
