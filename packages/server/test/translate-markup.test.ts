import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codePoints, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const first = (reply: { data: { translations: { text: string }[] } }) => reply.data.translations[0]!;

describe('translate: tag handling', () => {
  it('xml: inline tags stay on the translated words, standalone codes kept, no unknown-word marks', async () => {
    const text = first(
      await t.translate({
        text: ['Click the <b>Save</b> button to keep your <x id="1"/> changes.'],
        target_lang: 'ES',
        source_lang: 'EN',
        tag_handling: 'xml',
      }),
    ).text;
    expect(text).toBe('Clic el <b>Salvar</b> botón para mantener vuestros <x id="1"/> cambios.');
  });

  it('xml: nested inline codes stay inside their sentence; a wrapper of several elements is structure', async () => {
    const nested = first(
      await t.translate({
        text: ['Read the <g id="1"><g id="2">user guide</g></g> before you start the machine.'],
        target_lang: 'ES',
        source_lang: 'EN',
        tag_handling: 'xml',
      }),
    ).text;
    // One sentence: translated as without the codes ("la guía de usuario antes de que ..."), not in two parts.
    expect(nested).toBe(
      'Leído la <g id="1"><g id="2">guía de usuario</g></g> antes de que empiezas la máquina.',
    );
    const outline = first(
      await t.translate({
        text: ['<doc><chapter><title>The red car</title><para>The house</para></chapter></doc>'],
        target_lang: 'ES',
        source_lang: 'EN',
        tag_handling: 'xml',
      }),
    ).text;
    expect(outline).toBe('<doc><chapter><title>El coche rojo</title><para>La casa</para></chapter></doc>');
  });

  it('html: a comment never ended runs to the end and is kept as written, not escaped into the text', async () => {
    const text = first(
      await t.translate({
        text: ['<p>The red car is fast.</p><!-- draft: the blue car <b>'],
        target_lang: 'ES',
        source_lang: 'EN',
        tag_handling: 'html',
      }),
    ).text;
    expect(text).toBe('<p>El coche rojo es rápidamente.</p><!-- draft: the blue car <b>');
  });

  it('html: a script after characters whose lower case is longer ("İ") ends at its end tag', async () => {
    const script = '<SCRIPT>run();</Script>';
    const text = first(
      await t.translate({
        text: [`<p>${'İ'.repeat(40)}</p>${script}<p>The red car is fast.</p>`],
        target_lang: 'ES',
        source_lang: 'EN',
        tag_handling: 'html',
      }),
    ).text;
    expect(text).toBe(`<p>${'İ'.repeat(40)}</p>${script}<p>El coche rojo es rápidamente.</p>`);
  });

  it('html: attributes untouched, block elements translated separately', async () => {
    const text = first(
      await t.translate({
        text: ['<p>The <a href="/x">red car</a> is fast.</p><p>I have a <em>big</em> dog.</p>'],
        target_lang: 'ES',
        source_lang: 'EN',
        tag_handling: 'html',
      }),
    ).text;
    expect(text).toBe(
      '<p>El <a href="/x">coche rojo</a> es rápidamente.</p><p>Tengo un perro <em>grande</em>.</p>',
    );
  });

  it('ignore_tags content is not translated; entities stay escaped; markup not billed', async () => {
    const reply = await t.translate({
      text: ['<doc><para>The <b>cat</b> &amp; the dog.</para><code>the house</code></doc>'],
      target_lang: 'ES',
      source_lang: 'EN',
      tag_handling: 'xml',
      ignore_tags: 'code',
      show_billed_characters: true,
    });
    const translation = first(reply) as { text: string; billed_characters: number };
    expect(translation.text).toContain('<code>the house</code>');
    expect(translation.text).toContain('&amp;');
    expect(translation.text).not.toMatch(/&(?!amp;|lt;|gt;)/);
    expect(translation.billed_characters).toBe(codePoints('The cat & the dog.the house'));
  });

  it('html: translate="no" and class="notranslate" elements stay as written; xml ignores the attributes', async () => {
    const text = [
      '<p>The house is big.</p><p translate="no">The house is big.</p>',
      '<p class="lead notranslate">The car.</p><span translate=no>My car</span> is red.',
    ];
    const html = await t.translate({ text, target_lang: 'ES', source_lang: 'EN', tag_handling: 'html' });
    expect(html.data.translations.map((item: { text: string }) => item.text)).toEqual([
      '<p>La casa es grande.</p><p translate="no">The house is big.</p>',
      '<p class="lead notranslate">The car.</p><span translate=no>My car</span> Es rojo.',
    ]);
    const xml = first(
      await t.translate({
        text: ['<p translate="no">The car.</p>'],
        target_lang: 'ES',
        source_lang: 'EN',
        tag_handling: 'xml',
      }),
    ).text;
    expect(xml).toBe('<p translate="no">El coche.</p>');
  });

  it('broken markup is kept whole: unclosed and stray tags come back once each', async () => {
    const text = first(
      await t.translate({
        text: ['The <b>big house</i> is red'],
        target_lang: 'ES',
        source_lang: 'EN',
        tag_handling: 'xml',
      }),
    ).text;
    expect(text.split('<b>')).toHaveLength(2);
    expect(text.split('</i>')).toHaveLength(2);
  });

  it('splitting_tags split, non_splitting_tags do not (pseudo brackets show the units)', async () => {
    const base = { target_lang: 'en-XA', source_lang: 'EN', tag_handling: 'xml' };
    const split = first(
      await t.translate({ ...base, text: ['<r>Good <s>day</s> friend</r>'], splitting_tags: 's' }),
    ).text;
    expect(split.match(/\[/g)).toHaveLength(3);
    const joined = first(await t.translate({ ...base, text: ['<r>Good <s>day</s> friend</r>'] })).text;
    expect(joined.match(/\[/g)).toHaveLength(1);
    const nonSplit = first(
      await t.translate({
        ...base,
        text: ['<r><s>Good day</s><s>friend</s></r>'],
        non_splitting_tags: ['s'],
      }),
    ).text;
    expect(nonSplit.match(/\[/g)).toHaveLength(1);
  });

  it('echoes tag_handling_version per translation (default v1), absent without tag handling', async () => {
    const v2 = await t.translate({
      text: ['a b', 'c d'],
      target_lang: 'en-XA',
      source_lang: 'EN',
      tag_handling: 'html',
      tag_handling_version: 'v2',
    });
    expect(v2.data.translations.map((x: { tag_handling_version: string }) => x.tag_handling_version)).toEqual(
      ['v2', 'v2'],
    );
    expect(
      first(await t.translate({ text: ['a'], target_lang: 'en-XA', tag_handling: 'xml' })),
    ).toHaveProperty('tag_handling_version', 'v1');
    expect(first(await t.translate({ text: ['a'], target_lang: 'en-XA' }))).not.toHaveProperty(
      'tag_handling_version',
    );
  });
});

describe('translate: sentence splitting and formatting', () => {
  const base = { target_lang: 'en-XA', source_lang: 'EN' };
  it('split_sentences 1 splits on punctuation and newlines, nonewlines on punctuation only, 0 not at all', async () => {
    const text = 'One two. Three four\nfive six';
    const count = async (mode?: string) =>
      first(
        await t.translate({ ...base, text: [text], ...(mode ? { split_sentences: mode } : {}) }),
      ).text.match(/\[/g)?.length;
    expect(await count()).toBe(3);
    expect(await count('1')).toBe(3);
    expect(await count('nonewlines')).toBe(2);
    expect(await count('0')).toBe(1);
  });

  it('does not split after abbreviations or before lower case', async () => {
    expect(
      first(await t.translate({ ...base, text: ['Mr. Smith is here. e.g. this one.'] })).text.match(/\[/g),
    ).toHaveLength(1);
  });

  it('keeps whitespace around texts and between sentences exactly', async () => {
    const text = first(await t.translate({ ...base, text: ['  Hello there.   How are you?\n\n'] })).text;
    expect(text.startsWith('  [')).toBe(true);
    expect(text.endsWith(']\n\n')).toBe(true);
    expect(text).toContain(']   [');
  });

  it('preserve_formatting keeps a lower-case start and a missing final period (Apertium)', async () => {
    const plain = first(
      await t.translate({ text: ['my friend is here'], target_lang: 'ES', source_lang: 'EN' }),
    ).text;
    const kept = first(
      await t.translate({
        text: ['my friend is here'],
        target_lang: 'ES',
        source_lang: 'EN',
        preserve_formatting: true,
      }),
    ).text;
    expect(plain).toBe('Mi amigo es aquí');
    expect(kept).toBe('mi amigo es aquí');
  });
});
