import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { VFile } from 'vfile';
import { describe, expect, test } from 'vitest';
import { extract, MergeError, merge, rehypeGlossa } from '../src/index.js';

const page =
  '<!doctype html>\n<html lang="en">\n<body>\n<p>Hello <b>world</b>.</p>\n<p>Second one.</p>\n</body>\n</html>\n';

describe('rehypeGlossa', () => {
  test('translates through `translate`, sets lang and keeps every other byte', async () => {
    const file = await unified()
      .use(rehypeParse)
      .use(rehypeGlossa, {
        lang: 'es',
        translate: async (segments) =>
          segments.map((s) => s.source.replace('Hello', 'Hola').replace('world', 'mundo')),
      })
      .process(new VFile({ path: 'site/index.html', value: page }));
    expect(String(file)).toBe(page.replace('"en"', '"es"').replace('Hello <b>world', 'Hola <b>mundo'));
    expect(file.data.glossa).toMatchObject({ segments: 2, translated: 2, kept: [] });
  });

  test('unusable and missing targets are kept in the source language and reported with positions', async () => {
    const file = await unified()
      .use(rehypeParse)
      .use(rehypeGlossa, { translate: async () => new Map([['p-1', 'Hola mundo.']]) })
      .process(page);
    expect(String(file)).toBe(page);
    expect(file.messages.map((m) => [m.reason, m.line, m.column])).toEqual([
      ['p-1: target drops code id "1"; kept in the source language', 4, 4],
      ['p-2: no translation; kept in the source language', 5, 4],
    ]);
    expect(file.data.glossa?.kept).toEqual(['p-1', 'p-2']);
  });

  test('misuse throws TypeError', () => {
    // @ts-expect-error: translate is required
    expect(() => unified().use(rehypeParse).use(rehypeGlossa, {}).freeze()).toThrow(
      new TypeError('rehypeGlossa: option `translate` must be an async function, got undefined'),
    );
    expect(() => merge(page, {}, { lang: 'not a language!' })).toThrow(
      new TypeError(
        'option `lang` must be a BCP 47 language code like "es" or "pt-BR", got "not a language!"',
      ),
    );
  });
});

describe('merge', () => {
  test('escapes markup characters in translated text and attribute values', () => {
    const html = '<p title="A title">Text</p>';
    expect(merge(html, { 'p-1': 'a &lt;b&gt; &amp; c', 'p.title-1': 'say "hi" &amp; bye' })).toBe(
      '<p title="say &quot;hi&quot; &amp; bye">a &lt;b&gt; &amp; c</p>',
    );
  });

  test('accepts <x id></x> for a standalone code', () => {
    expect(merge('<p>Line<br>break</p>', { 'p-1': 'Ligne<x id="1"></x>coupée' })).toBe(
      '<p>Ligne<br>coupée</p>',
    );
  });

  test('sets dir="rtl" for a right-to-left target and replaces an existing lang', () => {
    expect(merge('<html lang="en"><p>Hi there</p></html>', {}, { lang: 'ar' })).toBe(
      '<html dir="rtl" lang="ar"><p>Hi there</p></html>',
    );
    expect(merge('<html dir="rtl" lang="he"><p>Hi there</p></html>', {}, { lang: 'fr' })).toBe(
      '<html dir="ltr" lang="fr"><p>Hi there</p></html>',
    );
  });

  test('throws MergeError listing every unusable target', () => {
    expect(() => merge(page, { 'p-1': 'Hola <g id="1">mundo</g><x id="7"/>.' })).toThrow(MergeError);
    try {
      merge(page, { 'p-1': 'Hola <g id="1">mundo</g><x id="7"/>.' });
    } catch (error) {
      expect((error as MergeError).problems).toEqual([
        { key: 'p-1', offset: 43, reason: 'target has a code <x id="7"> the source lacks' },
      ]);
    }
  });

  test('keys carry the file path and segments their position', () => {
    const { segments } = extract(page, { file: 'site/index.html' });
    expect(segments.map((s) => [s.key, s.position])).toEqual([
      ['site/index.html#p-1', { line: 4, column: 4, offset: 43 }],
      ['site/index.html#p-2', { line: 5, column: 4, offset: 70 }],
    ]);
  });
});
