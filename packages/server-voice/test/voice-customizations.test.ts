/**
 * What an account's resources change in a voice session: spoken terms bias the recognizer (a word missing
 * from its dictionary is added with a pronunciation from espeak-ng), a glossary applies to the translations.
 * Real pocketsphinx on flite kal16 audio, real Apertium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipaToArpabet, pronunciations, termWords } from '../src/pronunciation.js';
import { startRecognizer } from '../src/recognizer.js';
import { startTestServer, type TestServer } from './helpers.js';
import { fliteWav, type Message, streamAudio } from './voice-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const session = (json: object, key?: string) =>
  t.call('/v3/voice/realtime', { json, ...(key === undefined ? {} : { key }) });
const text = (messages: Message[], type: string) =>
  messages
    .filter((m) => m.type === type)
    .map((m) => m.text)
    .join(' ');

describe('spoken-term pronunciations', () => {
  it('maps espeak-ng IPA to the model ARPAbet phones', async () => {
    expect(ipaToArpabet('ɡlˈɔsə')).toBe('G L AO S AH');
    expect(ipaToArpabet('tʃˈeɪndʒ')).toBe('CH EY N JH');
    expect(ipaToArpabet('pˈoʊstɡɚz')).toBe('P OW S T G ER Z');
    expect(ipaToArpabet('bˈʌtɚɹ')).toBe('B AH T ER');
    expect(await pronunciations(['glossa', 'kubernetes'])).toEqual([
      ['glossa', 'G L AO S AH'],
      ['kubernetes', 'K Y UW B ER N IY T S'],
    ]);
  });

  it('takes the letter words of the terms, once each', () => {
    expect(termWords(['Glossa Cloud', 'glossa', 'GPT-4', "O'Neil"])).toEqual(['glossa', 'cloud', "o'neil"]);
  });
});

describe('spoken terms bias recognition (flite kal16, real pocketsphinx)', () => {
  const SENTENCE = 'We translate the site with Glossa every day.';

  it('a term missing from the dictionary is misrecognised without the collection, recognised with it', async () => {
    const wav = fliteWav(SENTENCE);
    const plain = await session({ source_media_content_type: 'audio/auto' });
    const without = await streamAudio(plain.data.streaming_url, wav);
    expect(without.closeCode).toBe(1000);
    expect(text(without.messages, 'transcript')).not.toMatch(/glossa/i);

    const created = await t.call('/v3/voice/spoken_terms', {
      json: { name: 'products', language: 'en', terms: ['Glossa'] },
    });
    const biased = await session({
      source_media_content_type: 'audio/auto',
      spoken_terms_id: created.data.spoken_terms_id,
    });
    const withTerms = await streamAudio(biased.data.streaming_url, wav);
    expect(withTerms.closeCode).toBe(1000);
    const transcript = text(withTerms.messages, 'transcript');
    expect(transcript).toBe('We translate the site with Glossa every day.');
  });
});

describe('the recognizer helper', () => {
  it('skips a pronunciation with phones the model lacks and still adds the others', async () => {
    const finals: string[] = [];
    const recognizer = startRecognizer({
      inputType: [],
      words: [
        ['zzzq', 'XX YY'],
        ['qqq', ''],
        ['glossa', 'G L AO S AH'],
      ],
      onUtterance: (text) => finals.push(text),
    });
    recognizer.write(fliteWav('We translate the site with Glossa every day.'));
    await recognizer.finish();
    expect(finals.join(' ')).toBe('we translate the site with glossa every day');
  });
});

describe('glossary on a voice session (real Apertium)', () => {
  const glossary = (source: string, target: string, entries: string, key?: string) =>
    t.glossary(source, target, entries, key === undefined ? {} : { key });

  it('the translations of final transcripts follow the glossary', async () => {
    const wav = fliteWav('The file is too large.');
    const plain = await session({ source_media_content_type: 'audio/auto', target_languages: ['es'] });
    const before = await streamAudio(plain.data.streaming_url, wav);
    expect(text(before.messages, 'translation')).toMatch(/lima/i);

    const id = await glossary('en', 'es', 'file\tarchivo');
    const reply = await session({
      source_media_content_type: 'audio/auto',
      target_languages: ['es'],
      glossary_id: id,
    });
    expect(reply.status).toBe(200);
    const after = await streamAudio(reply.data.streaming_url, wav);
    expect(after.closeCode).toBe(1000);
    expect(text(after.messages, 'transcript')).toBe('The file is too large.');
    const translation = text(after.messages, 'translation');
    expect(translation).toMatch(/\barchivo\b/);
    expect(translation).not.toMatch(/lima/i);
  });

  it('refuses an unknown glossary, another account’s, one without the pair (404), one without targets (400)', async () => {
    const base = { source_media_content_type: 'audio/auto', target_languages: ['es'] };
    const unknown = await session({ ...base, glossary_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.data.message).toMatch(/Glossary '00000000-0000-4000-8000-000000000000' not found/);

    const other = await t.server.createAccount({ plan: 'paid' });
    const theirs = await glossary('en', 'es', 'file\tarchivo', other.key);
    expect((await session({ ...base, glossary_id: theirs })).status).toBe(404);
    expect((await session({ ...base, glossary_id: theirs }, other.key)).status).toBe(200);

    const french = await glossary('en', 'fr', 'file\tfichier');
    const wrongPair = await session({ ...base, glossary_id: french });
    expect(wrongPair.status).toBe(400);
    expect(wrongPair.data.message).toMatch(/^No dictionary found for language pair EN → ES in glossary/);
    const spanish = await glossary('en', 'es', 'file\tarchivo');
    const mixed = await session({ ...base, target_languages: ['es', 'ca'], glossary_id: spanish });
    expect(mixed.status).toBe(400);
    expect(mixed.data.message).toMatch(/^No dictionary found for language pair EN → CA in glossary/);

    const noTargets = await session({ source_media_content_type: 'audio/auto', glossary_id: french });
    expect(noTargets.status).toBe(400);
    expect(noTargets.data.message).toBe('glossary_id needs target_languages.');
  });
});
