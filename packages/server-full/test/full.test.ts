/** Every feature package plugged into the spine: what a self-hoster's glossa-server serves. Real server, loopback. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/helpers.js';
import { allFeatures } from '../src/index.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ features: allFeatures() });
});
afterAll(() => t.close());

it('/v3/languages/resources lists every resource of the interface, in the protocol order', async () => {
  const reply = await t.call('/v3/languages/resources');
  expect(reply.data.map((r: { name: string }) => r.name)).toEqual([
    'translate_text',
    'translate_document',
    'voice',
    'write',
    'glossary',
    'style_rules',
  ]);
});

it('documents list the text languages with the features documents have', async () => {
  const text = (await t.call('/v3/languages?resource=translate_text')).data;
  const documents = (await t.call('/v3/languages?resource=translate_document')).data;
  expect(documents.map((l: { lang: string }) => l.lang)).toEqual(text.map((l: { lang: string }) => l.lang));
  const spanish = documents.find((l: { lang: string }) => l.lang === 'es');
  expect(Object.keys(spanish.features).sort()).toEqual(['auto_detection', 'glossary', 'tag_handling']);
  expect(Object.keys(text.find((l: { lang: string }) => l.lang === 'es').features)).toContain('style_rules');
});

it('each feature answers: a document upload, a correction, a voice session', async () => {
  const form = new FormData();
  form.append('file', new Blob(['Hello world.']), 'a.txt');
  form.append('target_lang', 'en-XA');
  const upload = await fetch(`${t.server.url}/v2/document`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Service-Auth-Key ${t.server.devKey}` },
  });
  expect(upload.status).toBe(200);
  const corrected = await t.call('/v2/write/correct', {
    json: { text: ['I has a apple.'], target_lang: 'en-US' },
  });
  expect(corrected.status).toBe(200);
  const session = await t.call('/v3/voice/realtime', {
    json: { source_media_content_type: 'audio/ogg', source_language: 'en', target_languages: ['es'] },
  });
  expect(session.status, session.text).toBe(200);
  expect(session.data.streaming_url).toMatch(
    /^ws:\/\/127\.0\.0\.1:\d+\/v3\/voice\/realtime\/connect\?token=/,
  );
});
