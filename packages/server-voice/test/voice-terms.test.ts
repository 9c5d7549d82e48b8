import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { fliteWav, probeAudio, streamAudio } from './voice-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const terms = (json: unknown, key?: string, method = 'POST', id = '') =>
  t.call(`/v3/voice/spoken_terms${id ? `/${id}` : ''}`, { method, json, ...(key ? { key } : {}) });

describe('spoken-term collections', () => {
  it('create, list, get, replace, delete; another account sees none of it', async () => {
    const created = await terms({ name: 'places', language: 'en', terms: ['New York', '  Google  '] });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ name: 'places', language: 'en', terms: ['New York', 'Google'] });
    const id = created.data.spoken_terms_id;
    expect((await t.call('/v3/voice/spoken_terms')).data.spoken_terms).toEqual([created.data]);
    expect((await t.call(`/v3/voice/spoken_terms/${id}`)).data).toEqual(created.data);
    const replaced = await terms({ name: 'cities', language: 'EN', terms: ['Paris'] }, undefined, 'PUT', id);
    expect(replaced.status).toBe(200);
    expect(replaced.data).toMatchObject({
      spoken_terms_id: id,
      name: 'cities',
      language: 'en',
      terms: ['Paris'],
    });

    const other = await t.server.createAccount({ plan: 'paid' });
    expect((await t.call('/v3/voice/spoken_terms', { key: other.key })).data.spoken_terms).toEqual([]);
    expect((await t.call(`/v3/voice/spoken_terms/${id}`, { key: other.key })).status).toBe(404);
    expect((await terms({ name: 'x', language: 'en', terms: ['y'] }, other.key, 'PUT', id)).status).toBe(404);
    expect((await t.call(`/v3/voice/spoken_terms/${id}`, { method: 'DELETE', key: other.key })).status).toBe(
      404,
    );
    const session = await t.call('/v3/voice/realtime', {
      key: other.key,
      json: { source_media_content_type: 'audio/auto', spoken_terms_id: id },
    });
    expect(session.status).toBe(404);

    expect((await t.call(`/v3/voice/spoken_terms/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/v3/voice/spoken_terms/${id}`)).status).toBe(404);
  });

  it('refuses bad collections: 400', async () => {
    for (const body of [
      { name: 'x', language: 'de', terms: ['Berlin'] },
      { name: 'x', language: 'en', terms: [] },
      { name: 'x', language: 'en', terms: ['   '] },
      { name: 'x', language: 'en', terms: ['a'.repeat(101)] },
      { name: 'x', language: 'en', terms: Array.from({ length: 1001 }, (_, i) => `t${i}`) },
      { language: 'en', terms: ['a'] },
    ]) {
      expect((await terms(body)).status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
  });

  it('terms come out as written in the transcript of a session that uses them', async () => {
    const created = await terms({ name: 'brands', language: 'en', terms: ['New York', 'Google'] });
    const session = await t.call('/v3/voice/realtime', {
      json: { source_media_content_type: 'audio/auto', spoken_terms_id: created.data.spoken_terms_id },
    });
    const { messages } = await streamAudio(
      session.data.streaming_url,
      fliteWav('I flew to New York with my friend from Google.'),
    );
    const transcript = messages
      .filter((m) => m.type === 'transcript')
      .map((m) => m.text)
      .join(' ');
    expect(transcript).toContain('New York');
    expect(transcript).toContain('Google');
  });
});

describe('voice minutes and languages', () => {
  it('streamed minutes count in usage and under the custom tag', async () => {
    const account = await t.server.createAccount({ plan: 'paid', admin: true });
    const wav = fliteWav('Please open the door and close the window.');
    const seconds = (wav.length - 44) / 32_000;
    const session = await t.call('/v3/voice/realtime', {
      key: account.key,
      headers: { 'x-service-reporting-tag': 'call-center' },
      json: { source_media_content_type: 'audio/auto', target_languages: ['es'] },
    });
    expect((await streamAudio(session.data.streaming_url, wav)).closeCode).toBe(1000);
    const usage = await t.call('/v2/usage', { key: account.key });
    const speech = usage.data.products.find(
      (p: { product_type: string }) => p.product_type === 'speech_to_text',
    );
    expect(speech.account_unit_count).toBeCloseTo(seconds / 60, 3);
    expect(usage.data.character_count).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const report = await t.call(`/v2/admin/analytics/custom-tags?start_date=${today}&end_date=${today}`, {
      key: account.key,
    });
    const [entry] = report.data.custom_tag_usage_report.usage;
    expect(entry.custom_tag).toBe('call-center');
    expect(entry.breakdown.speech_to_text_minutes).toBeCloseTo(seconds / 60, 3);
    expect(entry.breakdown.total_characters).toBe(0);
  });

  it('/v3/languages?resource=voice: English transcribed with spoken terms; engine targets of English', async () => {
    const reply = await t.call('/v3/languages?resource=voice');
    expect(reply.status).toBe(200);
    const en = reply.data.find((l: { lang: string }) => l.lang === 'en');
    expect(en).toMatchObject({ usable_as_source: true, features: { transcription: {}, spoken_terms: {} } });
    expect(en.features.translated_speech).toBeUndefined();
    const es = reply.data.find((l: { lang: string }) => l.lang === 'es');
    expect(es).toMatchObject({
      usable_as_source: false,
      usable_as_target: true,
      features: { translated_speech: { status: 'stable' } },
    });
    expect(
      reply.data
        .filter((l: { usable_as_source: boolean }) => l.usable_as_source)
        .map((l: { lang: string }) => l.lang),
    ).toEqual(['en']);
  });

  it('translated speech: Ogg Opus per translation from espeak-ng, minutes counted as speech-to-speech', async () => {
    const account = await t.server.createAccount({ plan: 'paid', admin: true });
    const request = (json: object) =>
      t.call('/v3/voice/realtime', { key: account.key, json, headers: { 'x-service-reporting-tag': 'dub' } });
    const base = { source_media_content_type: 'audio/auto', target_languages: ['es'] };
    // Not declared for speech (audio/mpeg, audio/wav), or no target to speak: 400.
    expect((await request({ ...base, target_media_content_type: 'audio/mpeg' })).status).toBe(400);
    expect((await request({ ...base, target_media_content_type: 'audio/wav' })).status).toBe(400);
    expect(
      (await request({ source_media_content_type: 'audio/auto', target_media_content_type: 'audio/ogg' }))
        .status,
    ).toBe(400);
    const session = await request({ ...base, target_media_content_type: 'audio/ogg; codecs=opus' });
    expect(session.status).toBe(200);
    const wav = fliteWav('I would like to buy a ticket to the city.');
    const { messages, closeCode } = await streamAudio(session.data.streaming_url, wav);
    expect(closeCode).toBe(1000);
    const finals = messages.filter((m) => m.type !== 'partial');
    expect(finals.map((m) => m.type)).toEqual(['transcript', 'translation', 'speech', 'end_of_stream']);
    const speech = finals[2];
    expect(speech).toMatchObject({
      segment_id: 0,
      target_language: 'es',
      content_type: 'audio/ogg;codecs=opus',
    });
    const audio = probeAudio(Buffer.from(speech.audio, 'base64'));
    expect(audio).toMatchObject({ format: 'ogg', codec: 'opus', channels: 1 });
    // A spoken sentence lasts more than a second.
    expect(audio.seconds).toBeGreaterThan(1);
    const today = new Date().toISOString().slice(0, 10);
    const report = await t.call(`/v2/admin/analytics/custom-tags?start_date=${today}&end_date=${today}`, {
      key: account.key,
    });
    const [entry] = report.data.custom_tag_usage_report.usage;
    expect(entry.custom_tag).toBe('dub');
    expect(entry.breakdown.speech_to_speech_minutes).toBeCloseTo((wav.length - 44) / 32_000 / 60, 3);
    expect(entry.breakdown.speech_to_text_minutes).toBe(0);
  });
});
