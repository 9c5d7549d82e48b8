import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamEngine } from '../src/engines/upstream.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const glossary = (source: string, target: string, entries: string, server = t) =>
  server.glossary(source, target, entries);

async function translate(body: Record<string, unknown>, server = t): Promise<string> {
  const reply = await server.translate(body);
  expect(reply.status, JSON.stringify(reply.data)).toBe(200);
  return reply.data.translations[0].text;
}

describe('glossaries applied in /v2/translate (real Apertium)', () => {
  it('a term Apertium mistranslates comes out as the glossary says', async () => {
    const plain = await translate({ text: ['The file is too large.'], source_lang: 'EN', target_lang: 'ES' });
    expect(plain).toMatch(/lima/i);
    const id = await glossary('en', 'es', 'file\tarchivo');
    const fixed = await translate({
      text: ['The file is too large.'],
      source_lang: 'EN',
      target_lang: 'ES',
      glossary_id: id,
    });
    expect(fixed).toMatch(/\barchivo\b/);
    expect(fixed).not.toMatch(/lima/i);
  });

  it('the engine translates the sentence around a term: the words next to it keep their case', async () => {
    const id = await glossary('en', 'es', 'file\tarchivo\nsave\tguardar');
    const body = { source_lang: 'EN', target_lang: 'ES', glossary_id: id };
    // A term as an opaque code made Apertium start a new sentence after it: "archivo Es demasiado grande."
    // Now the term is a word of the sentence: the engine adds its article as it does for `lima`.
    expect(await translate({ ...body, text: ['file is too large.'] })).toBe(
      'El archivo es demasiado grande.',
    );
    const saved = await translate({ ...body, text: ['Save the file before you close it.'] });
    expect(saved).toMatch(/^Guardar el archivo antes /);
    expect(saved).not.toMatch(/ El /);
  });

  it("the words next to a term agree with the glossary's target, not with the engine's reading", async () => {
    // Apertium reads "file" as `lima` (feminine) and "button" as `botón` (masculine).
    const id = await glossary('en', 'es', 'file\tarchivo\nbutton\ttecla');
    const body = { source_lang: 'EN', target_lang: 'ES', glossary_id: id };
    const probe = async (text: string) => translate({ ...body, text: [text] });
    expect(await probe('The file is too large.')).toMatch(/^El archivo /);
    expect(await probe('Open a file.')).toMatch(/\bun archivo\b/);
    expect(await probe('The name of the file is long.')).toMatch(/\bdel archivo\b/);
    expect(await probe('Press the button.')).toMatch(/\bla tecla\b/);
    expect(await probe('Press this button.')).toMatch(/\besta tecla\b/);
    expect(await probe('The color of the button is red.')).toMatch(/\bde la tecla\b/);
    // An adjective right after the term follows it too (the engine wrote `la lima roja`, `el botón pequeño`).
    expect(await probe('Open the red file.')).toMatch(/\bel archivo rojo\b/);
    expect(await probe('Press the small button.')).toMatch(/\bla tecla pequeña\b/);
    const plain = await translate({ text: ['Press the button.'], source_lang: 'EN', target_lang: 'ES' });
    expect(plain).toMatch(/\bel botón\b/);
  });

  it('Portuguese too, through the Spanish pivot (where the pivot leaves the engine reading unknown)', async () => {
    const id = await glossary('en', 'pt', 'file\tarquivo\nbutton\ttecla');
    const body = { source_lang: 'EN', target_lang: 'PT-BR', glossary_id: id };
    const probe = async (text: string) => translate({ ...body, text: [text] });
    // Without the glossary: `Aberto a lima vermelha.`, `O nome da lima …`, `Imprensa o botão pequeno.`
    expect(await probe('Open the red file.')).toMatch(/\bo arquivo vermelho\b/);
    expect(await probe('The name of the file is long.')).toMatch(/\bdo arquivo\b/);
    expect(await probe('Press the small button.')).toMatch(/\ba tecla pequena\b/);
  });

  it('matches case-insensitively on word boundaries, longest first, keeping the sentence-start case', async () => {
    const id = await glossary('en', 'es', 'file\tarchivo\nfile server\tservidor de ficheros');
    const start = await translate({
      text: ['File saved.'],
      source_lang: 'EN',
      target_lang: 'ES',
      glossary_id: id,
    });
    // Apertium adds the article (without the glossary: `La lima salvó.`), which agrees with the term.
    expect(start).toMatch(/^El archivo\b/);
    const longest = await translate({
      text: ['The FILE SERVER is down.'],
      source_lang: 'EN',
      target_lang: 'ES',
      glossary_id: id,
    });
    expect(longest).toContain('servidor de ficheros');
    expect(longest).not.toContain('archivo');
    const inside = await translate({
      text: ['The profile is ready.'],
      source_lang: 'EN',
      target_lang: 'ES',
      glossary_id: id,
    });
    expect(inside).not.toContain('archivo');
  });

  it('applies glossary_ids in order: the first glossary locks its terms first', async () => {
    const first = await glossary('en', 'es', 'file\tarchivo');
    const second = await glossary('en', 'es', 'file\tfichero\nwindow\tventanilla');
    const body = { text: ['Open the file in a new window.'], source_lang: 'EN', target_lang: 'ES' };
    const a = await translate({ ...body, glossary_ids: [first, second] });
    expect(a).toContain('archivo');
    expect(a).toContain('ventanilla');
    const b = await translate({ ...body, glossary_ids: [second, first] });
    expect(b).toContain('fichero');
    expect(b).not.toContain('archivo');
  });

  it('an edited glossary applies at once (compiled matchers are cached by version)', async () => {
    const id = await glossary('en', 'es', 'file\tarchivo');
    const body = { text: ['The file is ready.'], source_lang: 'EN', target_lang: 'ES', glossary_id: id };
    expect(await translate(body)).toContain('archivo');
    const put = await t.call(`/v3/glossaries/${id}/dictionaries`, {
      method: 'PUT',
      json: { source_lang: 'en', target_lang: 'es', entries: 'file\tfichero', entries_format: 'tsv' },
    });
    expect(put.status).toBe(200);
    const edited = await translate(body);
    expect(edited).toContain('fichero');
    expect(edited).not.toContain('archivo');
  });

  it('keeps markup with tag_handling and puts terms inside it', async () => {
    const id = await glossary('en', 'es', 'file\tarchivo');
    const text = await translate({
      text: ['Open the <b>file</b> &amp; close it.'],
      source_lang: 'EN',
      target_lang: 'ES',
      tag_handling: 'xml',
      glossary_id: id,
    });
    expect(text).toContain('<b>archivo</b>');
    expect(text).toContain('&amp;');
  });

  it('an en dictionary serves EN-US and EN-GB targets', async () => {
    const id = await glossary('es', 'en', 'archivo\tdossier');
    for (const target of ['EN-US', 'EN-GB']) {
      const text = await translate({
        text: ['El archivo está listo.'],
        source_lang: 'ES',
        target_lang: target,
        glossary_id: id,
      });
      expect(text).toContain('dossier');
    }
  });

  it('a pt dictionary serves PT-BR and PT-PT targets', async () => {
    const id = await glossary('es', 'pt', 'archivo\tdossiê');
    for (const target of ['PT-BR', 'PT-PT']) {
      const text = await translate({
        text: ['El archivo está listo.'],
        source_lang: 'ES',
        target_lang: target,
        glossary_id: id,
      });
      expect(text).toContain('dossiê');
    }
  });

  it('refuses a glossary without the requested pair (400, the public wording) and one of another pair', async () => {
    const id = await glossary('en', 'es', 'file\tarchivo');
    const pseudo = await t.translate({
      text: ['file'],
      source_lang: 'EN',
      target_lang: 'en-XA',
      glossary_id: id,
    });
    expect(pseudo.status).toBe(400);
    expect(pseudo.data.message).toBe(`No dictionary found for language pair EN → EN-XA in glossary '${id}'.`);
    // The glossary is checked before the engines, as the official client's suite expects (no German engine here).
    const german = await glossary('en', 'de', 'Hello\tHallo');
    const reverse = await t.translate({
      text: ['Test'],
      source_lang: 'DE',
      target_lang: 'EN-US',
      glossary_id: german,
    });
    expect(reverse.status).toBe(400);
    expect(reverse.data.message).toBe(
      `No dictionary found for language pair DE → EN-US in glossary '${german}'.`,
    );
    const reversed = await t.translate({
      text: ['archivo'],
      source_lang: 'ES',
      target_lang: 'EN-US',
      glossary_id: id,
    });
    expect(reversed.status).toBe(400);
    const unknown = await t.translate({
      text: ['file'],
      source_lang: 'EN',
      target_lang: 'ES',
      glossary_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    const noSource = await t.translate({ text: ['file'], target_lang: 'ES', glossary_id: id });
    expect(noSource.status).toBe(400);
  });
});

describe('glossaries applied through the pseudo engine', () => {
  it('an en → ar dictionary serves the ar-XB pseudo-locale, and the term is not pseudo-localized', async () => {
    const id = await glossary('en', 'ar', 'file\tملف');
    const text = await translate({
      text: ['Open the file now.'],
      source_lang: 'EN',
      target_lang: 'ar-XB',
      glossary_id: id,
    });
    expect(text).toContain('ملف');
    expect(text).not.toMatch(/file/i);
  });
});

describe('glossaries applied through the upstream engine (a second real server behind it)', () => {
  it('locks the term before forwarding and substitutes it after', async () => {
    const upstream = await startTestServer();
    const engine = await createUpstreamEngine({
      baseUrl: upstream.server.url,
      authKey: upstream.server.devKey,
    });
    const gateway = await startTestServer({ engines: [engine] });
    try {
      const id = await glossary('en', 'es', 'file\tarchivo', gateway);
      const text = await translate(
        { text: ['The file is too large.'], source_lang: 'EN', target_lang: 'ES', glossary_id: id },
        gateway,
      );
      expect(text).toMatch(/\barchivo\b/);
      expect(text).not.toMatch(/lima/i);
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});
