/**
 * Transcripts are written sentences before translation (issue 21): sentence case, the pronoun "I",
 * weekdays and months, spoken terms and glossary terms in their spelling, a final stop or question mark.
 * On plain transcript strings, then on flite speech through pocketsphinx and Apertium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { punctuate } from '../src/punctuate.js';
import { startTestServer, type TestServer } from './helpers.js';
import { fliteWav, streamAudio } from './voice-helpers.js';

describe('punctuate (plain transcripts)', () => {
  const en = (text: string, terms?: string[]) => punctuate(text, { language: 'en', terms });

  it('sentence case, the pronoun I and its contractions, a full stop', () => {
    expect(en('i would like to buy a ticket to the city')).toBe('I would like to buy a ticket to the city.');
    expect(en("yesterday i said i'm late and i'll call")).toBe("Yesterday I said I'm late and I'll call.");
    expect(en('the weather is nice today')).toBe('The weather is nice today.');
  });

  it('weekdays, months and languages capitalized; may/march only as months', () => {
    expect(en('the meeting is on monday')).toBe('The meeting is on Monday.');
    expect(en('we speak english and spanish in january')).toBe('We speak English and Spanish in January.');
    expect(en('it opens on march third and closes in may')).toBe(
      'It opens on March third and closes in May.',
    );
    expect(en('we may march together')).toBe('We may march together.');
  });

  it('questions get a question mark: wh-words, and an auxiliary before a subject', () => {
    expect(en('what time is it')).toBe('What time is it?');
    expect(en('would you like a coffee')).toBe('Would you like a coffee?');
    expect(en('is the station far')).toBe('Is the station far?');
    expect(en('have a nice day')).toBe('Have a nice day.');
  });

  it('terms as written (spoken terms, glossary terms), then sentence case', () => {
    expect(en('glossa translates the site', ['Glossa'])).toBe('Glossa translates the site.');
    expect(en('i flew to new york with my iphone', ['New York', 'iPhone'])).toBe(
      'I flew to New York with my iPhone.',
    );
    // A term that opens the sentence keeps its own spelling, first letter aside.
    expect(en('iphone sales grew', ['iPhone'])).toBe('IPhone sales grew.');
  });

  it('leaves a transcript that already ends a sentence, and an empty one, alone', () => {
    expect(en('Done!')).toBe('Done!');
    expect(en('  ')).toBe('');
    expect(punctuate('guten tag', { language: 'de' })).toBe('Guten tag.');
  });
});

describe('punctuated transcripts on a session (real pocketsphinx, real Apertium)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('"i would like … on sunday" is sent and translated as a sentence: "Me gustaría … domingo."', async () => {
    const session = await t.call('/v3/voice/realtime', {
      json: { source_media_content_type: 'audio/auto', target_languages: ['es'] },
    });
    const wav = fliteWav('I would like to go to the city on Sunday.');
    const { messages, closeCode } = await streamAudio(session.data.streaming_url, wav);
    expect(closeCode).toBe(1000);
    const transcript = messages.find((m) => m.type === 'transcript');
    const translation = messages.find((m) => m.type === 'translation');
    expect(transcript.text).toBe('I would like to go to the city on Sunday.');
    expect(translation.text).toMatch(/^Me gustaría\b/);
    expect(translation.text).toMatch(/\bdomingo\.$/);
    expect(translation.text).not.toMatch(/sunday/i);
  }, 60_000);
});
