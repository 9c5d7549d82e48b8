/**
 * HTML documents translate what a reader sees in attributes (`alt`, `title`) and say the target language
 * (issue 21). test/fixtures/attributes.html is LibreOffice's HTML export of attributes.fodt (see the README
 * there): `lang` on <body>, an image with `alt`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { translateFile } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

it('LibreOffice HTML (Apertium en→es): the alt text translated, <html> and <body> say es, everything else kept', async () => {
  const source = fixture('attributes.html');
  const { text, final } = await translateFile(t, 'attributes.html', source, {
    target_lang: 'ES',
    source_lang: 'EN',
  });
  expect(text).toContain('alt="El gato negro"');
  expect(text).toContain('<html lang="es">');
  expect(text).toContain('<body lang="es" link="#000080" vlink="#800000" dir="ltr">');
  expect(text).toContain('<title>El jardín</title>');
  expect(text).toMatch(
    /La casa es grande y el <a href="https:\/\/example.com\/garden">jardín<\/a>\s+es verde\./,
  );
  // Only the attribute's words and the text are billed: "The black cat" (13) with the page's text.
  const pageOnly = await translateFile(t, 'attributes.html', source.replace(' alt="The black cat"', ''), {
    target_lang: 'ES',
    source_lang: 'EN',
  });
  expect(final.billed_characters - pageOnly.final.billed_characters).toBe('The black cat'.length);
  // Nothing else changed: the text without its translated parts is the source's.
  const skeleton = (html: string) => html.replace(/>[^<]*</g, '><').replace(/ (alt|lang)="[^"]*"/g, '');
  expect(skeleton(text)).toBe(skeleton(source));
});

it('a title on a link and an abbreviation, a lang on a quotation in another language', async () => {
  const source =
    '<!doctype html><html><body><p>The <abbr title="World Health Organization">WHO</abbr> is in the ' +
    '<a href="/city" title="The big city">city</a>. <q lang="fr">Bonjour</q> <span lang="en-GB">The dog is black.</span></p></body></html>';
  const { text } = await translateFile(t, 'titles.html', source, { target_lang: 'ES', source_lang: 'EN' });
  expect(text).toMatch(/^<!doctype html><html lang="es"><body>/);
  expect(text).toContain('<abbr title="Organización Mundial de la Salud">OMS</abbr>');
  expect(text).toContain('<a href="/city" title="La ciudad grande">ciudad</a>');
  // The quotation keeps its language; a part marked as the source language (en-GB) says the target.
  expect(text).toContain('<q lang="fr">Bonjour</q> <span lang="es">El perro es negro.</span>');
});

it('alt and title inside scripts, styles, comments and raw text are not attributes: kept; a comment that never ends runs to the end', async () => {
  const source =
    '<html><head><script>document.write(\'<img alt="The cat">\');</script></head><body>' +
    '<textarea><b title="The dog">x</b></textarea><p title="The house">The cat is black.</p>' +
    '<!-- <img alt="The bird"> --><p>The dog is white.</p><!-- <img alt="The car">';
  const { text } = await translateFile(t, 'raw.html', source, { target_lang: 'ES', source_lang: 'EN' });
  expect(text).toContain('document.write(\'<img alt="The cat">\');');
  expect(text).toContain('<b title="The dog">');
  expect(text).toContain('<p title="La casa">');
  expect(text).toContain('<!-- <img alt="The bird"> -->');
  // (The spine's HTML reader writes the unended comment's `<` as `&lt;`.)
  expect(text).toMatch(/!-- <img alt="The car">$/);
});
