/**
 * Issue 21, item 3: `correct` and `rephrase` never make text worse. Every harmful edit quoted in the issue,
 * on the learner sentences it came from (JFLEG, COWS-L2H) or sentences holding the same words; and
 * precision on slices of those corpora, judged by their own references (bench/write-corpora.ts; sources
 * and licences in bench/data/README.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDebianTexts } from '../bench/detect-debian.js';
import { describeScore, emptyCorpusScore, judge, readCorpus } from '../bench/write-corpora.js';
import { correctEnglish } from '../src/write/english.js';
import { correctFrench } from '../src/write/french.js';
import { correctSpelling } from '../src/write/spelling.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const correct = async (text: string, target_lang: string) => {
  const reply = await t.call('/v2/write/correct', { json: { text: [text], target_lang } });
  expect(reply.status).toBe(200);
  return reply.data.improvements[0].text as string;
};

describe('correct makes no harmful edit', () => {
  it('never splits an unknown English word into two real ones', { timeout: 120_000 }, async () => {
    const successful = await correct(
      'You can only be successfull by learning new stuff and trying it too.',
      'en-US',
    );
    expect(successful).not.toContain('success full');
    const favorite = await correct(
      'I could concentrate on my favorit subjects when I was a fresh man in my college.',
      'en-US',
    );
    expect(favorite).not.toContain('favor it');
    expect(await correct('The development of biomechanics has made this possible.', 'en-US')).toBe(
      'The development of biomechanics has made this possible.',
    );
  });

  it('never renames a proper noun', async () => {
    const turkey = 'In Turkey the public transportation is getting developed in the two big cities.';
    expect(await correct(turkey, 'en-US')).toContain('Turkey');
    expect(await correct('Take the example of Bangalore city in India.', 'en-US')).toBe(
      'Take the example of Bangalore city in India.',
    );
  });

  it('does not "fix" the article of "a everything"', async () => {
    expect(await correct('He gave me a everything he had.', 'en-US')).not.toContain('an everything');
  });

  it('leaves correct or unclear words of other languages alone, never splitting them', async () => {
    expect(await correct('Das Haus ist grosser als unseres.', 'de')).toContain('grosser');
    expect(await correct('Ich bleibe heute zu hause.', 'de')).not.toContain('ha use');
    expect(await correct('Speró di vederti presto.', 'it')).toContain('Speró');
    expect(await correct('Mi abuelo mortió en el hospital.', 'es')).toContain('mortió');
    expect(await correct('Nous avons visité le musé avec nos amis.', 'fr')).not.toContain('musés');
  });

  it('puts back the apostrophe of an Italian elided word before a vowel (VALICO, tuned)', async () => {
    // "sull" is "sull'" before a vowel, which Hunspell does not suggest (its "sul albero" is wrong); before a
    // consonant its "sul" is right.
    expect(await correct("L'uomo ha messo la borsa sull albero.", 'it')).toBe(
      "L'uomo ha messo la borsa sull'albero.",
    );
    expect(await correct('La borsa è sull’auto nell atrio.', 'it')).toBe('La borsa è sull’auto nell’atrio.');
    // "all" is English too: "all inclusive" is left as written.
    expect(await correct('Abbiamo scelto un albergo all inclusive.', 'it')).toContain('all inclusive');
    expect(await correct('Un altro ragazzo sta sull banco.', 'it')).toContain('sul banco');
  });

  it('after an Italian auxiliary, a past participle is meant, not a future (VALICO, held out)', async () => {
    // Hunspell's first idea for "seguiro" is "seguirò"; after "ha" only "seguito" can be meant.
    expect(await correct('Si è alzato e ha seguiro la coppia.', 'it')).toBe(
      'Si è alzato e ha seguito la coppia.',
    );
    // Elsewhere the future stays the fix.
    expect(await correct('Domani seguiro la coppia.', 'it')).toBe('Domani seguirò la coppia.');
  });

  it('leaves a word the writer put in quotation marks alone (UGCNormal, held out)', async () => {
    // The writer marks "crackear" as a coinage; Hunspell's first idea is "cracker".
    const quoted = 'Meu amigo conseguiu "crackear" o chip do cartucho.';
    expect(await correct(quoted, 'pt-BR')).toBe(quoted);
    expect(await correct('Meu amigo conseguiu «crackear» o chip.', 'pt-BR')).toContain('«crackear»');
    // Unquoted, a misspelling next to it is still fixed.
    expect(await correct('Ele "crackeou" o chip do aparelho telefonico.', 'pt-BR')).toContain('telefônico');
  });
});

describe('rephrase keeps agreement', () => {
  it('"a lot of" becomes "many" only before a plural', async () => {
    const reply = await t.call('/v2/write/rephrase', {
      json: {
        text: ['They built it without a lot of investment.', 'They built it with a lot of investments.'],
        target_lang: 'en-US',
        writing_style: 'business',
      },
    });
    expect(reply.data.improvements.map((i: { text: string }) => i.text)).toEqual([
      'They built it without a lot of investment.',
      'They built it with many investments.',
    ]);
  });

  it('an article follows the word a rewrite puts after it', async () => {
    const reply = await t.call('/v2/write/rephrase', {
      json: { text: ['That is an impossible task.'], target_lang: 'en-US', tone: 'diplomatic' },
    });
    expect(reply.data.improvements[0].text).toBe('That is a very difficult task.');
  });
});

describe('edits the checker is not sure of are not made (the wrong edits of the corpora)', () => {
  it('English: no guess between neighbours, no short-word typo, no agreement with an object pronoun', {
    timeout: 120_000,
  }, async () => {
    const cases: [string, string][] = [
      // "qualities" or "quantities"? A dropped letter does not decide between them.
      ['And I expect, if we lose quanlities of cars, we will protect our life.', 'quanlities'],
      // "te": "to", "the", "tea"...
      ['it seems fair for people te increase the tax price.', ' te '],
      // "you" is the object of "show", not a subject for a verb "skill".
      ['clearly, you must show you skills and by speaking.', 'you skills'],
    ];
    for (const [text, kept] of cases) expect(await correctEnglish(text, 'en-US')).toContain(kept);
    // Still fixed: a letter doubled or undoubled, a verb agreeing with its subject pronoun.
    expect(await correctEnglish('Comming to atmosphere and nature both are same.', 'en-US')).toContain(
      'Coming',
    );
    expect(await correctEnglish('He go to school.', 'en-US')).toBe('He goes to school.');
    expect(await correctEnglish('I think that you goes there.', 'en-US')).toBe('I think that you go there.');
  });

  it('Spanish: an ñ the writer typed is kept, a missing one is added; an ending is not swapped; names stay', async () => {
    expect(await correctSpelling('Me gusta caminar en los montaños.', 'es')).toBe(
      'Me gusta caminar en los montaños.',
    );
    expect(await correctSpelling('Traigo mi perro pequeno.', 'es')).toBe('Traigo mi perro pequeño.');
    const cycling = 'Me ponía a bicicletear por los callejones.';
    expect(await correctSpelling(cycling, 'es')).toBe(cycling);
    const chan = 'Chan se casó con Joan Lin en 1982.';
    expect(await correctSpelling(chan, 'es')).toBe(chan);
  });

  it('French: no hedged fix ("S’il s’agit d’un impératif"), no unit spacing', {
    timeout: 60_000,
  }, async () => {
    for (const text of [
      "Définit le délai maximum avant d'annuler les requêtes",
      '4 * 4 Ko, écriture avec opensync',
    ]) {
      expect(await correctFrench(text)).toBe(text);
    }
    // Still fixed: agreement Grammalecte is sure of.
    expect(await correctFrench('Les chat mange.')).toBe('Les chats mangent.');
  });
});

describe('edits the learner corpora showed wrong (MERLIN, VALICO, UGCNormal, COWS-L2H held out)', () => {
  it('German: a capital only where a noun goes, umlauts are letters, the Swiss ss stays, English stays', {
    timeout: 60_000,
  }, async () => {
    const kept: [string, string][] = [
      // "antworte", not "Antwort"; a capital after a verb or "bitte" makes another part of speech.
      ['Bitte antwort mir schnell.', 'antwort'],
      // "durfte", "surft" or "dürft"? "andere", "anders" or "änder"? An umlaut is not an accent.
      ['Am Herbst durft ich nicht mehr arbeiten.', 'durft'],
      ['Man muss sich ander Kultur interessieren.', 'ander'],
      // The Swiss spelling of "großen", "Grüßen": not "gossen", "Güssen".
      ['Ich lege mich grossen Wert mit Menschenkontakt.', 'grossen'],
      ['Mit freundlichen Grüssen', 'Grüssen'],
      // An English word, not "Barbies".
      ['Ich liebe Babies und Kindern.', 'Babies'],
    ];
    for (const [text, word] of kept) expect(await correct(text, 'de')).toContain(word);
    // Still fixed: a noun after its determiner, a missing umlaut with no other candidate, "mann" → "man".
    expect(await correct('Ich kann nicht mehr in meinem beruf arbeiten.', 'de')).toBe(
      'Ich kann nicht mehr in meinem Beruf arbeiten.',
    );
    expect(await correct('Es muss moglichst schnell sein.', 'de')).toBe('Es muss möglichst schnell sein.');
    expect(await correct('Aus diesem Grund kann mann eine Wohnung kaufen.', 'de')).toBe(
      'Aus diesem Grund kann man eine Wohnung kaufen.',
    );
  });

  it('Spanish, Italian, Portuguese: no capital for a lower-case word, no accent moved, no English "fixed"', {
    timeout: 60_000,
  }, async () => {
    // "Dificil" was Hunspell's capitalized twin; the accent is the fix.
    expect(await correct('Creo que es muy dificil ahora.', 'es')).toBe('Creo que es muy difícil ahora.');
    expect(await correct('No me gusta techno y electrónico música.', 'es')).toContain('techno');
    // "Baccio" is a name.
    expect(await correct('Poi mi ha dato un baccio.', 'it')).not.toContain('Baccio');
    expect(await correct('Il suo ragazzo era arrabiata.', 'it')).toBe('Il suo ragazzo era arrabbiata.');
    // "legitimo" or "legítimo": where the accent goes is the question.
    expect(await correct('Deveria ser couro légitimo.', 'pt-BR')).toBe('Deveria ser couro légitimo.');
    expect(await correct('Drivers facilmente encontrados no site HP', 'pt-BR')).toContain('Drivers');
    expect(await correct('O valor do produto é baixissimo.', 'pt-BR')).toBe(
      'O valor do produto é baixíssimo.',
    );
  });

  it('a fix changing letters is a word people write, and not a guess between two neighbours', {
    timeout: 60_000,
  }, async () => {
    const kept: [string, string, string][] = [
      // Forms only Hunspell's affix rules make: nobody writes "verminter", "wohnenden", "pianeggiava".
      ['Aber die vermiter kann die Fremde betrügen.', 'vermiter', 'de'],
      ['Wir gehen am wochnenden schwimmen.', 'wochnenden', 'de'],
      ['Lui si è avviato mentre pianggiava forte.', 'pianggiava', 'it'],
      // "cadetto" or "caduto" (written 17 times as often)? A guess.
      ['Ha cadeto al terra.', 'cadeto', 'it'],
      // "como" is written more often than "comò" in Italian: a word of its own (or Spanish), left alone.
      ['Anche se ero distratto, como avevo detto prima.', 'como', 'it'],
    ];
    for (const [text, word, language] of kept) expect(await correct(text, language)).toContain(word);
    // An accent left out is fixed even where a neighbour is common ("dios") or the fixed form rare.
    expect(await correct('Hace muchos dias que no llueve.', 'es')).toBe('Hace muchos días que no llueve.');
    expect(await correct('Ella esta entregandose a su trabajo.', 'es')).toContain('entregándose');
    // A common word, one clear typo away: fixed.
    expect(await correct('Ich wäre froh, wenn du balld kommst.', 'de')).toContain('bald');
  });
});

describe('precision on learner corpora, judged by their references', () => {
  it('JFLEG (English, 249 sentences): precision at least 0.95 (measured 0.951, 97 of 102 edits)', {
    timeout: 180_000,
  }, async () => {
    const score = emptyCorpusScore();
    for (const item of readCorpus('jfleg-test.tsv'))
      judge(score, item, await correctEnglish(item.source, 'en-US'));
    expect(score.made, describeScore(score)).toBeGreaterThan(50);
    expect(score.right / score.made, describeScore(score)).toBeGreaterThanOrEqual(0.95);
  });

  // The six: "simpatico" → "simpático" (twice), "pédirla" → "pedirla", "visítarlos" → "visitarlos" are right
  // spellings where the reference rewrote the phrase ("pedirle que nos hable"); "decidendo" → "decidiendo"
  // (the writer meant "diciendo") and "haciendlo" → "haciendo" (meant "haciéndolo") are wrong.
  it('COWS-L2H (Spanish, 300 sentences): at most six edits no reference makes (measured 6 of 20)', {
    timeout: 60_000,
  }, async () => {
    const score = emptyCorpusScore();
    for (const item of readCorpus('cows-l2h.tsv'))
      judge(score, item, await correctSpelling(item.source, 'es'));
    expect(score.made - score.right, describeScore(score)).toBeLessThanOrEqual(6);
  });

  it('correct German, Italian and Portuguese text (Debian catalogues) comes back unchanged', async () => {
    const texts = readDebianTexts();
    for (const [label, language] of [
      ['de', 'de'],
      ['it', 'it'],
      ['pt', 'pt-BR'],
    ] as const) {
      const changed: string[] = [];
      for (const { text } of texts.filter((item) => item.label === label)) {
        const output = await correctSpelling(text, language);
        if (output !== text) changed.push(`${text} → ${output}`);
      }
      // One Italian message really is misspelled ("cifratto"): that fix is right.
      expect(changed.filter((line) => !line.startsWith('cifratto'))).toEqual([]);
    }
  });
});
