import { pseudoLocalize } from '@glossa/protocol';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { VFile } from 'vfile';
import { describe, expect, test } from 'vitest';
import { extract, MergeError, merge, remarkGlossa } from '../src/index.js';

const page = '# Hello *world*\n\nSee [the docs](https://example.com) now.\n\n```sh\nnpm i\n```\n';

describe('remarkGlossa', () => {
  test('translates through `translate` and outputs the spliced Markdown', async () => {
    const seen: string[] = [];
    const processor = unified()
      .use(remarkParse)
      .use(remarkGlossa, {
        translate: async (segments) => {
          seen.push(...segments.map((segment) => `${segment.key}=${segment.source}`));
          return segments.map((segment) => pseudoLocalize(segment.source, 'en-XA'));
        },
      });
    const file = await processor.process(new VFile({ path: 'docs/intro.md', value: page }));
    expect(seen).toEqual([
      'docs/intro.md#heading-1=Hello <g id="1">world</g>',
      'docs/intro.md#paragraph-1=See <g id="1">the docs</g> now.',
    ]);
    expect(String(file)).toBe(
      '# \\[Ĥééļļöö *ŵöööŕļð*\\]\n\n\\[Šéééé [ţĥéé ðööçš](https://example.com) ñööŵ.\\]\n\n```sh\nnpm i\n```\n',
    );
    expect(file.data.glossa).toMatchObject({ segments: 2, translated: 2, kept: [] });
    expect(file.messages).toEqual([]);
  });

  test('hands the translated tree to later plugins (remark-rehype)', async () => {
    const file = await unified()
      .use(remarkParse)
      .use(remarkGlossa, {
        translate: async (segments) => segments.map((s) => s.source.replace('world', 'mundo')),
      })
      .use(remarkRehype)
      .use(rehypeStringify)
      .process(page);
    expect(String(file)).toContain('<h1>Hello <em>mundo</em></h1>');
  });

  test('an unusable target is kept in the source language and reported with its position', async () => {
    const file = await unified()
      .use(remarkParse)
      .use(remarkGlossa, {
        translate: async (segments) =>
          new Map(
            segments.map((s) => [s.key, s.key.endsWith('paragraph-1') ? 'Siehe die Doku jetzt.' : s.source]),
          ),
      })
      .process(page);
    expect(String(file)).toBe(page);
    expect(file.messages.map((message) => [message.reason, message.line, message.column])).toEqual([
      ['paragraph-1: target drops code id "1"; kept in the source language', 3, 1],
    ]);
    expect(file.data.glossa?.kept).toEqual(['paragraph-1']);
  });

  test('a segment without a translation is kept and listed', async () => {
    const file = await unified()
      .use(remarkParse)
      .use(remarkGlossa, { translate: async (segments) => segments.map(() => undefined) })
      .process(page);
    expect(String(file)).toBe(page);
    expect(file.messages.map((message) => message.reason)).toEqual([
      'heading-1: no translation; kept in the source language',
      'paragraph-1: no translation; kept in the source language',
    ]);
  });

  test('misuse throws TypeError naming what was expected', () => {
    // @ts-expect-error: translate is required
    expect(() => unified().use(remarkParse).use(remarkGlossa, {}).freeze()).toThrow(
      new TypeError('remarkGlossa: option `translate` must be an async function, got undefined'),
    );
    expect(() => extract('x', { gfm: 'yes' as unknown as boolean })).toThrow(
      new TypeError('option `gfm` must be a boolean, got string'),
    );
    expect(() => extract('x', { frontmatter: ['title', ''] })).toThrow(TypeError);
  });
});

describe('merge', () => {
  test('throws MergeError listing every unusable target', () => {
    const targets = { 'heading-1': 'Hola <g id="9">mundo</g>', 'paragraph-1': 'Ver <g id="1">docs</g' };
    let error: unknown;
    try {
      merge(page, targets);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MergeError);
    expect((error as MergeError).problems).toEqual([
      { key: 'heading-1', offset: 2, reason: 'target has a code <g id="9"> the source lacks' },
      {
        key: 'paragraph-1',
        offset: 17,
        reason: 'target is not valid inline XML: malformed tag at offset 18',
      },
    ]);
  });

  test('a literal autolink written as [url](url) (a bracket against it) reads back as the same code', () => {
    const text = 'View it at http://localhost:3000/.\n';
    const source = extract(text, { dialect: 'docusaurus' });
    expect(source.segments.map((s) => s.source)).toEqual(['View it at <x id="1"/>.']);
    const out = merge(text, { 'paragraph-1': '[Véalo en <x id="1"/>.]' }, { dialect: 'docusaurus' });
    expect(out).toBe('\\[Véalo en [http://localhost:3000/](http://localhost:3000/).\\]\n');
    // `:3000` inside the label parses as something else than text; the link still shows its URL.
    expect(extract(out, { dialect: 'docusaurus' }).segments.map((s) => s.source)).toEqual([
      '[Véalo en <x id="1"/>.]',
    ]);
  });

  test('reorders codes and escapes Markdown syntax in translated text', () => {
    const text = 'Click *here* to see [the page](/p).\n';
    const out = merge(text, {
      'paragraph-1': '<g id="2">La página</g> *se ve* <g id="1">aquí</g> &amp; [1]',
    });
    expect(out).toBe('[La página](/p) \\*se ve\\* *aquí* & \\[1\\]\n');
  });

  test('accepts <x id></x> for a standalone code, refuses an unclosed <x id>', () => {
    expect(merge('Run `npm i` now.\n', { 'paragraph-1': 'Ejecute <x id="1"></x> ahora.' })).toBe(
      'Ejecute `npm i` ahora.\n',
    );
    expect(() => merge('Run `npm i` now.\n', { 'paragraph-1': 'Ejecute <x id="1"> ahora.' })).toThrow(
      'paragraph-1 (offset 0): target is not valid inline XML: unclosed <x id="1"> at offset 8',
    );
  });

  test('a translated segment that starts like a block marker is escaped', () => {
    expect(merge('Word\n', { 'paragraph-1': '# not a heading' })).toBe('\\# not a heading\n');
    expect(merge('Word\n', { 'paragraph-1': '1. not a list' })).toBe('1\\. not a list\n');
  });

  test('reports an unterminated ignore region', () => {
    const { messages, segments } = extract('<!-- glossa-ignore-start -->\n\nHidden text.\n');
    expect(segments).toEqual([]);
    expect(messages).toEqual([
      {
        reason: 'glossa-ignore-start has no glossa-ignore-end: ignored to the end of the file',
        line: 1,
        column: 1,
        offset: 0,
      },
    ]);
  });
});
