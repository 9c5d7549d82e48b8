/**
 * Issue 21, item 4: glossary terms as words of the sentence, with real Apertium (Debian's apertium-eng-spa,
 * apertium-eng-cat, apertium-fr-es, apertium-es-pt, apertium-spa-ita). Each expectation quotes what the pair
 * gives without the glossary (`lima`, Apertium's reading of "file") and what the glossary must give.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
});
afterAll(() => t.close());

async function translate(body: Record<string, unknown>): Promise<string[]> {
  const reply = await t.translate(body);
  expect(reply.status, JSON.stringify(reply.data)).toBe(200);
  return reply.data.translations.map((translation: { text: string }) => translation.text);
}

const glossaries = new Map<string, Promise<string>>();
const glossaryFor = (source: string, target: string, entries: string) => {
  const key = `${source}>${target}:${entries}`;
  if (!glossaries.has(key)) glossaries.set(key, t.glossary(source, target, entries));
  return glossaries.get(key)!;
};

async function withGlossary(
  source: string,
  target: string,
  entries: string,
  text: string,
  extra: Record<string, unknown> = {},
) {
  const body = { text: [text], source_lang: source, target_lang: target, ...extra };
  const glossary_id = await glossaryFor(source.toLowerCase(), target.slice(0, 2).toLowerCase(), entries);
  const [plain] = await translate(body);
  const [glossed] = await translate({ ...body, glossary_id });
  return { plain: plain!, glossed: glossed! };
}

describe('inflected forms follow the glossary', () => {
  it('the plural of a term is the plural of its target ("files" → "archivos", not "limas")', async () => {
    const open = await withGlossary('EN', 'ES', 'file\tarchivo', 'Open the files.');
    expect(open.plain).toBe('Abierto las limas.');
    expect(open.glossed).toBe('Abierto los archivos.');
    const ready = await withGlossary('EN', 'ES', 'file\tarchivo', 'The files are ready.');
    expect(ready.glossed).toBe('Los archivos están a punto.');
    const keys = await withGlossary('EN', 'ES', 'button\ttecla', 'The buttons are red.');
    expect(keys.plain).toBe('Los botones son rojos.');
    expect(keys.glossed).toBe('Las teclas son rojas.');
  });

  it('a term the glossary writes in another form than its lemma still inflects ("archivos")', async () => {
    const one = await withGlossary('EN', 'ES', 'file\tarchivos', 'The file is ready.');
    expect(one.glossed).toBe('El archivo está a punto.');
  });

  it('an adjective term takes the gender and number of its noun ("menudo" → "menuda", "menudas")', async () => {
    const house = await withGlossary('EN', 'ES', 'small\tmenudo', 'The small house is red.');
    expect(house.plain).toBe('La casa pequeña es roja.');
    expect(house.glossed).toBe('La casa menuda es roja.');
    const houses = await withGlossary('EN', 'ES', 'small\tmenudo', 'The small houses are red.');
    expect(houses.glossed).toBe('Las casas menudas son rojas.');
  });

  it('a verb of the source that looks like the term is not replaced by the noun', async () => {
    // "files" as a verb: the lemma `file` is the term's, but the engine read a verb and `archivo` is a noun.
    const verb = await withGlossary('EN', 'ES', 'file\tarchivo', 'He files the report.');
    expect(verb.glossed).toBe(verb.plain);
  });
});

describe('agreement within the clause, for every target with a generator', () => {
  it('Spanish: determiner, adjective and predicate ("Este archivo estuvo eliminado")', async () => {
    const deleted = await withGlossary('EN', 'ES', 'file\tarchivo', 'This file was deleted.');
    expect(deleted.plain).toBe('Esta lima estuvo eliminada.');
    expect(deleted.glossed).toBe('Este archivo estuvo eliminado.');
    const red = await withGlossary('EN', 'ES', 'file\tarchivo', 'Open the red files.');
    expect(red.glossed).toBe('Abierto los archivos rojos.');
    const small = await withGlossary('EN', 'ES', 'button\ttecla', 'Press the small button.');
    expect(small.plain).toBe('Prensa el botón pequeño.');
    expect(small.glossed).toBe('Prensa la tecla pequeña.');
  });

  it('French, through the Spanish pivot ("le fichier", "nouveau", "éliminé")', async () => {
    const deleted = await withGlossary('EN', 'FR', 'file\tfichier', 'This file was deleted.');
    expect(deleted.plain).toBe('Cette lime a été éliminée.');
    expect(deleted.glossed).toBe('Ce fichier a été éliminé.');
    const saved = await withGlossary('EN', 'FR', 'file\tfichier', 'Save the file as a new file.');
    expect(saved.plain).toBe('Sauver la lime comme lime nouvelle.');
    expect(saved.glossed).toMatch(/^Sauver le fichier .* fichier nouveau\.$/);
    const many = await withGlossary('EN', 'FR', 'file\tfichier', 'Open the files.');
    expect(many.glossed).toBe('Ouvert les fichiers.');
    // The "Enregistrer sous fichier nouvelle": the article stays, the adjective agrees, and a
    // verb term is written as the glossary has it.
    const saveAs = 'Save as\tEnregistrer sous\nfile\tfichier';
    const asNew = await withGlossary('EN', 'FR', saveAs, 'Save as a new file.');
    expect(asNew.plain).toBe('Salva comme lime nouvelle.');
    expect(asNew.glossed).toBe('Enregistrer sous un fichier nouveau.');
    const spanish = await withGlossary(
      'EN',
      'ES',
      'Save as\tGuardar como\nfile\tarchivo',
      'Save as a new file.',
    );
    expect(spanish.glossed).toBe('Guardar como un archivo nuevo.');
  }, 120_000);

  it('Portuguese and Italian, through the pivot; Catalan, direct', async () => {
    const pt = await withGlossary('EN', 'PT-PT', 'file\tarquivo', 'This file was deleted.');
    expect(pt.plain).toBe('Esta lima esteve eliminada.');
    expect(pt.glossed).toBe('Este arquivo esteve eliminado.');
    const ptRed = await withGlossary('EN', 'PT-PT', 'file\tarquivo', 'Open the red files.');
    expect(ptRed.glossed).toBe('Aberto os arquivos vermelhos.');
    const it_ = await withGlossary('EN', 'IT', 'file\tfile', 'Open the red files.');
    expect(it_.plain).toBe('Aperto le lime rosse.');
    expect(it_.glossed).toBe('Aperto i file rossi.');
    const itDeleted = await withGlossary('EN', 'IT', 'file\tfile', 'This file was deleted.');
    expect(itDeleted.glossed).toBe('Questo file fu eliminato.');
    // Catalan: Apertium already says `fitxer`; a feminine term makes the sentence feminine.
    const ca = await withGlossary('EN', 'CA', 'file\tcarpeta', 'This file was deleted.');
    expect(ca.plain).toBe('Aquest fitxer va ser eliminat.');
    expect(ca.glossed).toBe('Aquesta carpeta va ser eliminada.');
  }, 120_000);

  it('a term inside inline markup agrees ("el <b>archivo grande</b>"), no determiner dropped', async () => {
    const large = await withGlossary('EN', 'ES', 'file\tarchivo', 'Open the <b>large file</b> now.', {
      tag_handling: 'xml',
    });
    expect(large.plain).toBe('Abierto la <b>lima grande</b> ahora.');
    expect(large.glossed).toBe('Abierto el <b>archivo grande</b> ahora.');
    const one = await withGlossary('EN', 'ES', 'file\tarchivo', 'Open a <b>file</b>.', {
      tag_handling: 'html',
    });
    expect(one.glossed).toBe('Abierto un <b>archivo</b>.');
    const fr = await withGlossary('EN', 'FR', 'file\tfichier', 'Open the <i>red file</i>.', {
      tag_handling: 'xml',
    });
    expect(fr.glossed).toMatch(/\ble <i>fichier rouge<\/i>/);
    // Every word of the engine's sentence is still there: the term replaced one word, added none, lost none.
    for (const text of ['The file is too large.', 'The name of the file is long.', 'Open a file.']) {
      const { plain, glossed } = await withGlossary('EN', 'ES', 'file\tarchivo', text);
      const words = (sentence: string) => sentence.replace(/\bdel\b/g, 'de el').split(' ').length;
      expect(words(glossed), `${plain} / ${glossed}`).toBe(words(plain));
    }
  });

  it('a term of several words keeps its other words, the head inflected', async () => {
    const disk = await withGlossary(
      'EN',
      'ES',
      'file\tarchivo\nfolder\tcarpeta compartida',
      'Open the folders.',
    );
    expect(disk.glossed).toBe('Abierto las carpetas compartidas.');
    const server = await withGlossary(
      'EN',
      'ES',
      'file server\tservidor de ficheros',
      'The file server is down.',
    );
    expect(server.glossed).toContain('servidor de ficheros');
    // In another form than written: found by its lemmas, its head inflected, the rest as written.
    const servers = await withGlossary(
      'EN',
      'ES',
      'file server\tservidor de ficheros',
      'The file servers are down.',
    );
    expect(servers.plain).toBe('Los servidores de lima son abajo.');
    expect(servers.glossed).toBe('Los servidores de ficheros son abajo.');
    const disks = await withGlossary('EN', 'ES', 'hard disk\tunidad rígida', 'The hard disks are full.');
    expect(disks.glossed).toBe('Las unidades rígidas son llenas.');
  });

  it('with post-editing (a "use X instead of Y" instruction) terms still agree, and are never edited', async () => {
    const edited = await withGlossary('EN', 'ES', 'file\tarchivo', 'Open the red files.', {
      custom_instructions: ['Use "Abra" instead of "Abierto"', 'Use "fichero" instead of "archivo"'],
    });
    expect(edited.plain).toBe('Abra las limas rojas.');
    expect(edited.glossed).toBe('Abra los archivos rojos.');
  });

  it('a target the analyser does not know is written as the glossary has it', async () => {
    const brand = await withGlossary('EN', 'ES', 'file\tZorblax', 'The file is too large.');
    expect(brand.glossed).toContain('Zorblax');
    expect(brand.glossed).not.toMatch(/lima/i);
  });
});

describe('sentences without a term are translated exactly as without the glossary', () => {
  // Sentences of the repo's Apertium benchmark (bench/apertium-sentences.txt), none with the term "file".
  const sentences = readFileSync(new URL('../bench/apertium-sentences.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !/\bfiles?\b/i.test(line))
    .slice(0, 60);

  it('plain text, several targets, in the same request as a sentence with a term', async () => {
    for (const [target, entries] of [
      ['ES', 'file\tarchivo'],
      ['FR', 'file\tfichier'],
      ['PT-BR', 'file\tarquivo'],
    ] as const) {
      const body = { text: sentences, source_lang: 'EN', target_lang: target };
      const plain = await translate(body);
      const glossary_id = await glossaryFor('en', target.slice(0, 2).toLowerCase(), entries);
      const glossed = await translate({ ...body, text: [...sentences, 'Open the file.'], glossary_id });
      expect(glossed.slice(0, sentences.length)).toEqual(plain);
      expect(glossed.at(-1)).not.toMatch(/lima|lime/);
    }
  }, 120_000);

  it('with markup', async () => {
    const texts = sentences.slice(0, 20).map((line) => line.replace(/^(\S+)/, '<b>$1</b>'));
    const body = { text: texts, source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' };
    const plain = await translate(body);
    const glossary_id = await glossaryFor('en', 'es', 'file\tarchivo');
    expect(await translate({ ...body, glossary_id })).toEqual(plain);
  }, 120_000);
});

describe('markup through a pivot with a glossary (issue 33, item 5)', () => {
  it('en→fr through es, tag_handling=html: the <span> stays on its two words through both legs', async () => {
    const body = {
      text: [
        'The file could not be <span>uploaded to</span> the server.',
        'My <span>younger brother</span> lives in a big house.',
      ],
      source_lang: 'EN',
      target_lang: 'FR',
      tag_handling: 'html',
    };
    const glossary_id = await glossaryFor('en', 'fr', 'house\tmaison');
    const glossed = await translate({ ...body, glossary_id });
    expect(glossed[0]).toBe('La lime ne pourrait pas être <span>chargée au</span> serveur.');
    expect(glossed[1]).toMatch(/^Mes vies de <span>frère plus<\/span> jeunes .*maison/);
    // The same codes as the path without a glossary.
    expect(glossed[0]).toBe((await translate(body))[0]);
  });
});
