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

describe('precision on learner corpora, judged by their references', () => {
  it('JFLEG (English, 249 sentences): precision at least 0.92 (measured 0.931; the goal is 0.95)', {
    timeout: 180_000,
  }, async () => {
    const score = emptyCorpusScore();
    for (const item of readCorpus('jfleg-test.tsv'))
      judge(score, item, await correctEnglish(item.source, 'en-US'));
    expect(score.made, describeScore(score)).toBeGreaterThan(50);
    expect(score.right / score.made, describeScore(score)).toBeGreaterThanOrEqual(0.92);
  });

  it('COWS-L2H (Spanish, 300 sentences): at most ten edits no reference makes (measured 10 of 24)', {
    timeout: 60_000,
  }, async () => {
    const score = emptyCorpusScore();
    for (const item of readCorpus('cows-l2h.tsv'))
      judge(score, item, await correctSpelling(item.source, 'es'));
    expect(score.made - score.right, describeScore(score)).toBeLessThanOrEqual(10);
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
