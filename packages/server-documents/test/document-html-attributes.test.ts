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

const page = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

it("a real page's <meta> description and its Open Graph and Twitter titles, descriptions and image alt (Excalidraw's index.html): translated; other metas and the rest kept", async () => {
  const source = page('excalidraw-index.html');
  const { text, final } = await translateFile(t, 'index.html', source, {
    target_lang: 'ES',
    source_lang: 'EN',
  });
  expect(final.status).toBe('done');
  const content = (attribute: string, name: string) =>
    new RegExp(`${attribute}="${name}"\\s+content="([^"]*)"`).exec(text)?.[1];
  const description = content('name', 'description');
  expect(description).toMatch(/herramienta/);
  expect(description).not.toMatch(/collaborative whiteboard tool/);
  for (const name of ['og:description', 'twitter:description'])
    expect(content('property', name)).toBe(description);
  expect(content('property', 'og:title')).toMatch(/^Excalidraw — /);
  expect(content('property', 'og:title')).not.toMatch(/made easy/);
  expect(content('property', 'og:image:alt')).not.toBe('Excalidraw logo');
  // Not text: kept as they are.
  expect(content('property', 'og:url')).toBe('https://excalidraw.com');
  expect(text).toContain('content="width=device-width, initial-scale=1, maximum-scale=1');
  expect(text).toContain('<html lang="es">');
  // Nothing else changed: the page without its metas' contents, its title and its texts is the source's.
  const skeleton = (html: string) =>
    html
      .replace(
        /(name|property)="(description|og:title|og:description|og:image:alt|twitter:title|twitter:description)"(\s+)content="[^"]*"/g,
        '$1="$2"$3content=""',
      )
      .replace(/<title>[^<]*<\/title>/, '<title></title>')
      .replace(/<noscript>[^<]*<\/noscript>/, '<noscript></noscript>')
      .replace(/<h1 class="visually-hidden">[^<]*<\/h1>/, '<h1 class="visually-hidden"></h1>')
      .replace(' lang="es"', ' lang="en"');
  expect(skeleton(text)).toBe(skeleton(source));
});

it('placeholder and aria-label (a Bootstrap navbar): translated', async () => {
  const { text } = await translateFile(t, 'navbar.html', page('bootstrap-navbar.html'), {
    target_lang: 'ES',
    source_lang: 'EN',
  });
  expect(text).toContain('placeholder="Búsqueda" aria-label="Búsqueda"');
  expect(text).not.toContain('aria-label="Toggle navigation"');
  expect(text).toMatch(/aria-label="[^"]*[Nn]avegación"/);
  expect(text).toMatch(/<nav class="navbar navbar-dark bg-dark" aria-label="Primer [^"]*ejemplo">/);
  // Other attributes (aria-controls, aria-expanded, data-*) are not text.
  expect(text).toContain('aria-controls="navbarsExample01" aria-expanded="false"');
});

it("a button's value is its label (translated); a text field's value is the user's (kept)", async () => {
  const { text } = await translateFile(
    t,
    'form.html',
    '<form><input type="text" name="q" value="The cat"><input type="submit" value="Send the form"><input type="reset" value="Clear"></form>',
    { target_lang: 'ES', source_lang: 'EN' },
  );
  expect(text).toContain('<input type="text" name="q" value="The cat">');
  expect(text).toContain('<input type="submit" value="Enviar la forma">');
  expect(text).not.toContain('value="Clear"');
});

it('a right-to-left target (the pseudo-locale ar-XB): <html dir="rtl">, and <body dir> (LibreOffice writes ltr) follows', async () => {
  const excalidraw = await translateFile(t, 'index.html', page('excalidraw-index.html'), {
    target_lang: 'AR-XB',
    source_lang: 'EN',
  });
  expect(excalidraw.final.status).toBe('done');
  expect(excalidraw.text).toContain('<html lang="ar-XB" dir="rtl">');
  const libreoffice = await translateFile(t, 'attributes.html', fixture('attributes.html'), {
    target_lang: 'AR-XB',
    source_lang: 'EN',
  });
  expect(libreoffice.text).toContain('<html lang="ar-XB" dir="rtl">');
  expect(libreoffice.text).toContain('<body lang="ar-XB" link="#000080" vlink="#800000" dir="rtl">');
  // Back to a left-to-right target: a page marked rtl says ltr.
  const back = await translateFile(
    t,
    'rtl.html',
    '<html lang="en" dir="rtl"><body><p dir="rtl">The cat is black.</p><p lang="he" dir="rtl">x</p></body></html>',
    { target_lang: 'ES', source_lang: 'EN' },
  );
  expect(back.text).toContain('<html lang="es" dir="ltr">');
  // A part in another language keeps its direction.
  expect(back.text).toContain('<p lang="he" dir="rtl">');
});
