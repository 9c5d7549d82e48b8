/**
 * The official Node client of the public protocol (`deepl-node` from npm, unchanged) drives a real Glossa
 * server through every public method, on language pairs with an installed engine (Apertium English ↔
 * Spanish). The only change from a client of the public service is the auth scheme word, given through the
 * client's documented `headers` option. Every answer is recorded for `description.test.ts`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as deepl from 'deepl-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviation } from './description.js';
import { type ConformanceServer, startConformanceServer } from './helpers.js';

let t: ConformanceServer;
let client: deepl.DeepLClient;
beforeAll(async () => {
  t = await startConformanceServer();
  client = t.client();
}, 300_000);
afterAll(() => t.close());

const entries = () => new deepl.GlossaryEntries({ entries: { car: 'coche', house: 'casa' } });

describe('deepl-node against a real Glossa server', () => {
  it('usage and languages', async () => {
    const usage = await client.getUsage();
    expect(usage.anyLimitReached()).toBe(false);
    expect(usage.character?.limit).toBeGreaterThan(0);
    const sources = await client.getSourceLanguages();
    expect(sources.map((language) => language.code)).toEqual(expect.arrayContaining(['en', 'es']));
    const targets = await client.getTargetLanguages();
    const codes = targets.map((language) => language.code);
    expect(codes).toEqual(expect.arrayContaining(['en-GB', 'en-US', 'es', 'pt-BR', 'pt-PT']));
    expect(codes).not.toContain('en');
    for (const language of targets) expect(language.supportsFormality).toBeDefined();
    const pairs = await client.getGlossaryLanguagePairs();
    expect(pairs).toContainEqual({ sourceLang: 'en', targetLang: 'es' });
  });

  it('translateText: one text, several, options, extra parameters', async () => {
    const one = await client.translateText('The house is big.', 'en', 'es');
    expect(one).toMatchObject({ text: 'La casa es grande.', detectedSourceLang: 'en' });
    const detected = await client.translateText(['The house is big.', 'The car.'], null, 'es');
    expect(detected.map((result) => result.detectedSourceLang)).toEqual(['en', 'en']);
    expect(detected).toHaveLength(2);
    const withOptions = await client.translateText('The house is big.', 'en', 'es', {
      splitSentences: 'nonewlines',
      preserveFormatting: true,
      formality: 'prefer_more',
      context: 'A note about houses.',
      modelType: 'prefer_quality_optimized',
      tagHandlingVersion: 'v2',
    });
    expect(withOptions.text).toBe('La casa es grande.');
    expect(withOptions.billedCharacters).toBeGreaterThan(0);
    // Unknown parameters are ignored, as the public service does; a known one in them overrides.
    const extra = await client.translateText('The house is big.', 'en', 'es', {
      extraRequestParameters: { example_extra_param: 'x', target_lang: 'FR' },
    });
    expect(extra.text).not.toBe('La casa es grande.');
    expect(extra.detectedSourceLang).toBe('en');
  });

  it('translateText with tag handling: HTML translate="no" and class="notranslate" stay as written', async () => {
    const html = await client.translateText(
      '<p>The house is big.</p><p translate="no">The house is big.</p><p class="lead notranslate">The car.</p>',
      'en',
      'es',
      { tagHandling: 'html' },
    );
    expect(html.text).toBe(
      '<p>La casa es grande.</p><p translate="no">The house is big.</p><p class="lead notranslate">The car.</p>',
    );
    const xml = await client.translateText('<a>The house is big.</a><b>The car.</b>', 'en', 'es', {
      tagHandling: 'xml',
      ignoreTags: ['b'],
      splittingTags: 'a',
      nonSplittingTags: [],
      outlineDetection: false,
    });
    expect(xml.text).toBe('<a>La casa es grande.</a><b>The car.</b>');
  });

  it('v2 glossaries: create (TSV and CSV), get, list, entries, translate with it, delete', async () => {
    const glossary = await client.createGlossary('conformance', 'en', 'es', entries());
    expect(glossary).toMatchObject({ name: 'conformance', ready: true, sourceLang: 'en', targetLang: 'es' });
    expect(glossary.entryCount).toBe(2);
    const csv = await client.createGlossaryWithCsv('csv', 'en', 'es', Buffer.from('car,auto\n'));
    expect(csv.entryCount).toBe(1);
    expect((await client.getGlossary(glossary.glossaryId)).name).toBe('conformance');
    const listed = await client.listGlossaries();
    expect(listed.map((item) => item.glossaryId)).toEqual(
      expect.arrayContaining([glossary.glossaryId, csv.glossaryId]),
    );
    expect((await client.getGlossaryEntries(glossary)).entries()).toEqual({ car: 'coche', house: 'casa' });
    const translated = await client.translateText('The car is red.', 'en', 'es', { glossary });
    expect(translated.text).toContain('coche');
    await expect(client.translateText('The car.', 'es', 'en-US', { glossary })).rejects.toThrow(
      deepl.DeepLError,
    );
    await client.deleteGlossary(glossary);
    await client.deleteGlossary(csv.glossaryId);
    await expect(client.getGlossary(glossary.glossaryId)).rejects.toThrow(deepl.GlossaryNotFoundError);
  });

  it('v3 glossaries: every multilingual method', async () => {
    const empty = await client.createMultilingualGlossary('empty', []);
    expect(empty.dictionaries).toEqual([]);
    const glossary = await client.createMultilingualGlossary('multi', [
      { sourceLangCode: 'en', targetLangCode: 'es', entries: entries() },
      {
        sourceLangCode: 'es',
        targetLangCode: 'en',
        entries: new deepl.GlossaryEntries({ entries: { casa: 'house' } }),
      },
    ]);
    expect(glossary.dictionaries.map((dictionary) => dictionary.entryCount)).toEqual([2, 1]);
    const fromCsv = await client.createMultilingualGlossaryWithCsv('csv', 'en', 'fr', 'car,voiture\n');
    expect(fromCsv.dictionaries[0]).toMatchObject({
      sourceLangCode: 'en',
      targetLangCode: 'fr',
      entryCount: 1,
    });
    expect((await client.getMultilingualGlossary(glossary.glossaryId)).name).toBe('multi');
    expect((await client.listMultilingualGlossaries()).length).toBeGreaterThanOrEqual(3);
    const dictionary = await client.getMultilingualGlossaryDictionaryEntries(glossary, 'en', 'es');
    expect(dictionary.entries.entries()).toEqual({ car: 'coche', house: 'casa' });
    const updated = await client.updateMultilingualGlossaryDictionary(glossary, {
      sourceLangCode: 'en',
      targetLangCode: 'es',
      entries: new deepl.GlossaryEntries({ entries: { dog: 'perro' } }),
    });
    expect(updated.dictionaries.find((item) => item.sourceLangCode === 'en')?.entryCount).toBe(3);
    await client.updateMultilingualGlossaryDictionaryWithCsv(glossary, 'en', 'es', 'cat,gato\n');
    const replaced = await client.replaceMultilingualGlossaryDictionary(glossary, {
      sourceLangCode: 'en',
      targetLangCode: 'es',
      entries: new deepl.GlossaryEntries({ entries: { car: 'auto' } }),
    });
    expect(replaced.entryCount).toBe(1);
    const replacedCsv = await client.replaceMultilingualGlossaryDictionaryWithCsv(
      glossary,
      'en',
      'es',
      'car,coche\n',
    );
    expect(replacedCsv.entryCount).toBe(1);
    expect((await client.updateMultilingualGlossaryName(glossary, 'renamed')).name).toBe('renamed');
    const translated = await client.translateText('The car is red.', 'en', 'es', { glossary });
    expect(translated.text).toContain('coche');
    await client.deleteMultilingualGlossaryDictionary(glossary, 'es', 'en');
    expect((await client.getMultilingualGlossary(glossary.glossaryId)).dictionaries).toHaveLength(1);
    for (const id of [glossary.glossaryId, empty.glossaryId, fromCsv.glossaryId])
      await client.deleteMultilingualGlossary(id);
    await expect(client.getMultilingualGlossary(glossary.glossaryId)).rejects.toThrow(
      deepl.GlossaryNotFoundError,
    );
  });

  it('documents: translateDocument, upload, status, download', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'glossa-conformance-doc-'));
    const input = join(dir, 'input.txt');
    writeFileSync(input, 'The house is big.');
    const output = join(dir, 'output.txt');
    const status = await client.translateDocument(input, output, 'en', 'es');
    expect(status.ok()).toBe(true);
    expect(readFileSync(output, 'utf8')).toBe('La casa es grande.');
    const handle = await client.uploadDocument(Buffer.from('The car.'), null, 'es', { filename: 'car.txt' });
    const done = await client.isDocumentTranslationComplete(handle);
    expect(done.status.ok()).toBe(true);
    expect((await client.getDocumentStatus(handle)).done()).toBe(true);
    const second = join(dir, 'second.txt');
    await client.downloadDocument(handle, second);
    expect(readFileSync(second, 'utf8')).toBe('El coche.');
    await expect(
      client.translateDocument(Buffer.from('Test'), join(dir, 'x.invalid'), null, 'es', {
        filename: 'document.invalid',
      }),
    ).rejects.toThrow(/(nvalid file)|(file extension)/);
    await expect(
      client.translateDocument(Buffer.from('La casa es grande.'), join(dir, 'same.txt'), null, 'es', {
        filename: 'same.txt',
      }),
    ).rejects.toThrow(/Source and target language/);
  });

  it('rephraseText', async () => {
    const result = await client.rephraseText('He go to school.', 'en-US');
    expect(result).toMatchObject({ text: 'He goes to school.', targetLang: 'en-US' });
    const styled = await client.rephraseText(['He go to school.'], 'en-US', 'default', 'friendly');
    expect(styled).toHaveLength(1);
    await expect(client.rephraseText('He go to school.', 'en-US', 'business', 'friendly')).rejects.toThrow(
      /Both writing_style and tone defined/,
    );
  });

  it('style rules: every method', async () => {
    const rule = await client.createStyleRule({
      name: 'house style',
      language: 'es',
      configured_rules: { punctuation: { periods_in_academic_degrees: 'do_not_use' } },
      custom_instructions: [{ label: 'sign in', prompt: 'Use "sign in" instead of "log in".' }],
    });
    expect(rule).toMatchObject({ name: 'house style', language: 'es' });
    expect((await client.getStyleRule(rule.styleId)).styleId).toBe(rule.styleId);
    expect((await client.getAllStyleRules(0, 25, true)).map((item) => item.styleId)).toContain(rule.styleId);
    expect((await client.updateStyleRuleName(rule.styleId, 'renamed')).name).toBe('renamed');
    const configured = await client.updateStyleRuleConfiguredRules(rule.styleId, {
      dates_and_times: { calendar_era: 'use_bc_and_ad' },
    });
    expect(configured.configuredRules).toBeDefined();
    const instruction = await client.createStyleRuleCustomInstruction(rule.styleId, {
      label: 'friendly',
      prompt: 'Be friendly.',
    });
    expect(instruction.id).toBeDefined();
    const got = await client.getStyleRuleCustomInstruction(rule.styleId, instruction.id as string);
    expect(got).toMatchObject({ label: 'friendly', prompt: 'Be friendly.' });
    const changed = await client.updateStyleRuleCustomInstruction(rule.styleId, instruction.id as string, {
      label: 'formal',
      prompt: 'Be formal.',
      source_language: 'de',
    });
    expect(changed).toMatchObject({ label: 'formal', prompt: 'Be formal.' });
    const translated = await client.translateText('The house is big.', 'en', 'es', {
      styleRule: rule.styleId,
    });
    expect(translated.text).toBeDefined();
    await client.deleteStyleRuleCustomInstruction(rule.styleId, instruction.id as string);
    await client.deleteStyleRule(rule.styleId);
    await expect(client.getStyleRule(rule.styleId)).rejects.toThrow(deepl.DeepLError);
  });

  it('translation memories: list', async () => {
    expect(await client.listTranslationMemories(0, 25)).toEqual([]);
  });

  it('a wrong key is an AuthorizationError (403)', async () => {
    const wrong = t.client({ headers: { Authorization: 'Service-Auth-Key wrong' } });
    await expect(wrong.getUsage()).rejects.toThrow(deepl.AuthorizationError);
  });

  it('every answer the client got matches the public description', () => {
    expect(t.exchanges.length).toBeGreaterThan(40);
    expect(t.exchanges.map(deviation).filter(Boolean)).toEqual([]);
  });
});
