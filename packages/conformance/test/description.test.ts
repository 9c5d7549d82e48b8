/**
 * The public description's response schemas against a real server, for the operations the interface names
 * that the official client does not call (client.test.ts covers the others): every answer below must match
 * the schema the description declares for its operation and status. Operations of the description the
 * interface does not name (organization developer keys, the admin usage report) are listed, not called.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviation, OPERATIONS } from './description.js';
import { type ConformanceServer, startConformanceServer } from './helpers.js';

let t: ConformanceServer;
beforeAll(async () => {
  t = await startConformanceServer();
}, 300_000);
afterAll(() => t.close());

/** Operations of the description outside the interface (service-interface.md names none of them). */
const NOT_IN_THE_INTERFACE = new Set([
  'adminCreateDeveloperKey',
  'adminGetDeveloperKeys',
  'adminDeactivateDeveloperKey',
  'adminRenameDeveloperKey',
  'adminSetDeveloperKeyUsageLimits',
  'adminGetAnalytics',
]);

/**
 * Operations of the interface Glossa does not serve at the description's path yet, with the reason. Each
 * is checked to still be missing (404), so this list cannot go stale silently.
 */
const NOT_YET_AT_THE_PUBLIC_PATH: Record<string, [method: string, path: string, reason: string]> = {};

/** The voice translation job operations, exercised by their own test below (created, uploaded, polled). */
const VOICE_TRANSLATE_JOBS = ['createVoiceTranslateJob', 'getVoiceTranslateJobStatus'];

/** The quality-evaluation operations, exercised by their own test below (a job: submitted, then polled). */
const QUALITY_EVALUATION = ['submitQualityEvaluation', 'pollQualityEvaluation'];

describe('the public description validates the answers of a real server', () => {
  it('answers of the operations the official client does not call', async () => {
    const calls: [string, Parameters<ConformanceServer['call']>[1]?][] = [
      ['/v2/usage'],
      ['/v2/languages?type=source'],
      ['/v2/languages?type=target'],
      ['/v3/languages?resource=translate_text&include=beta'],
      ['/v3/languages?resource=translate_document'],
      ['/v3/languages?resource=write'],
      ['/v3/languages?resource=voice'],
      ['/v3/languages?resource=glossary'],
      ['/v3/languages?resource=style_rules'],
      ['/v3/languages/resources'],
      ['/v2/glossary-language-pairs'],
      [
        '/v2/translate',
        { json: { text: ['The house is big.'], target_lang: 'ES', show_billed_characters: true } },
      ],
      ['/v2/translate', { json: { text: ['Hello'] } }],
      ['/v2/write/correct', { json: { text: ['He go to school.'], target_lang: 'en-US' } }],
      [
        '/v2/write/rephrase',
        { json: { text: ['He go to school.'], target_lang: 'en-US', tone: 'friendly' } },
      ],
      ['/v3/translation_memories?page=0&page_size=25'],
      ['/v3/style_rules?page=0&page_size=10&detailed=true'],
      ['/v3/glossaries'],
      ['/v2/glossaries'],
      ['/v2/admin/analytics/custom-tags?start_date=2026-01-01&end_date=2026-01-31'],
      ['/v3/voice/realtime', { json: { source_media_content_type: 'audio/auto', target_languages: ['es'] } }],
      ['/v3/voice/realtime?token=unknown'],
      ['/v3/glossaries/00000000-0000-4000-8000-000000000000'],
      ['/v2/usage', { headers: { Authorization: 'Service-Auth-Key wrong' } }],
    ];
    for (const [path, init] of calls) await t.call(path, init);
    const session = t.exchanges.find(
      (exchange) => exchange.method === 'POST' && exchange.path === '/v3/voice/realtime',
    );
    const token = JSON.parse(session?.body.toString() ?? '{}').token as string;
    await t.call(`/v3/voice/realtime?token=${encodeURIComponent(token)}`);
    expect(t.exchanges.length).toBe(calls.length + 1);
    const documents = t.exchanges.find((exchange) => exchange.query === 'resource=translate_document');
    expect(JSON.parse(documents?.body.toString() ?? '[]').length).toBeGreaterThan(0);
    expect(t.exchanges.map(deviation).filter(Boolean)).toEqual([]);
  });

  it('every operation of the description is exercised here or by the official client, or listed with its reason', async () => {
    const exercisedByClient = [
      'translateText', 'translateDocument', 'getDocumentStatus', 'downloadDocument', 'listGlossaryLanguages',
      'createMultilingualGlossary', 'listMultilingualGlossaries', 'getMultilingualGlossary',
      'patchMultilingualGlossary', 'deleteMultilingualGlossary', 'getMultilingualGlossaryEntries', 'deleteDictionary',
      'replaceDictionary', 'createGlossary', 'listGlossaries', 'getGlossary', 'deleteGlossary', 'getGlossaryEntries',
      'rephraseText', 'getUsage', 'getLanguagesV2', 'listTranslationMemories', 'getStyleRuleLists',
      'createStyleRuleList', 'getStyleRuleList', 'updateStyleRuleList', 'deleteStyleRuleList',
      'updateStyleRuleConfiguredRules', 'createCustomInstruction', 'getCustomInstruction', 'updateCustomInstruction',
      'deleteCustomInstruction',
    ]; // biome-ignore format: an id list
    const exercisedHere = [
      'correctText', 'getLanguageResources', 'getLanguages', 'adminGetCustomTagAnalytics', 'getVoiceStreamingUrl',
      'requestReconnection',
    ]; // biome-ignore format: an id list
    const accounted = new Set([
      ...exercisedByClient,
      ...exercisedHere,
      ...QUALITY_EVALUATION,
      ...VOICE_TRANSLATE_JOBS,
      ...NOT_IN_THE_INTERFACE,
      ...Object.keys(NOT_YET_AT_THE_PUBLIC_PATH),
    ]);
    expect(OPERATIONS.map((operation) => operation.operationId).filter((id) => !accounted.has(id))).toEqual(
      [],
    );
    for (const [method, path] of Object.values(NOT_YET_AT_THE_PUBLIC_PATH)) {
      expect((await t.call(path, method === 'POST' ? { json: {} } : {})).status, path).toBe(404);
    }
  });

  it('quality evaluation: a job submitted, polled until done, and its error answers', async () => {
    const first = t.exchanges.length;
    const submitted = await t.call('/v1/quality-evaluation', {
      json: {
        metadata: { source_language: 'en', target_language: 'es' },
        segments: [
          {
            source: 'Our Q3 revenue came in 5% above forecast.',
            target: 'Nuestros ingresos del T3 fueron un 15 % superiores.',
          },
          {
            source: 'Write to help@example.org by Friday.',
            target: 'Escriba a ayuda@example.org antes del viernes.',
          },
        ],
      },
    });
    expect(submitted.status).toBe(202);
    const { poll_url } = (await submitted.json()) as { poll_url: string };
    let report: { status: string; segments: { errors: unknown[] }[] } | undefined;
    for (let attempt = 0; attempt < 300 && !report; attempt++) {
      const polled = await t.call(poll_url);
      if (polled.status === 200) report = (await polled.json()) as typeof report;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(report?.status).toBe('done');
    expect(report?.segments.map((segment) => segment.errors.length)).toEqual([1, 1]);
    await t.call('/v1/quality-evaluation', { json: { metadata: { source_language: 'en' }, segments: [] } });
    await t.call('/v1/quality-evaluation/not-a-uuid');
    await t.call('/v1/quality-evaluation/00000000-0000-4000-8000-000000000000');
    const answers = t.exchanges.slice(first);
    expect(answers.slice(-3).map((exchange) => exchange.status)).toEqual([400, 400, 404]);
    expect(answers.map(deviation).filter(Boolean)).toEqual([]);
  });

  it('voice translation jobs: created, the audio uploaded, polled until complete, and their error answers', async () => {
    const first = t.exchanges.length;
    const file = join(mkdtempSync(join(tmpdir(), 'glossa-conformance-voice-')), 'speech.wav');
    execFileSync('flite', ['-voice', 'kal16', '-t', 'The weather is nice today.', '-o', file]);
    const audio = readFileSync(file);
    const created = await t.call('/v1/jobs/voice/translate?include=signed_url', {
      json: {
        source_file: { name: 'speech.wav', content_type: 'audio/wav', content_length: audio.length },
        parameters: { source_language: 'en' },
        targets: [
          { language: 'es', type: 'text/plain' },
          { language: 'es', type: 'application/x-subrip' },
          { language: 'es', type: 'audio/pcm;encoding=s16le;rate=16000' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const { job_id, upload_url, signature } = (await created.json()) as Record<string, string>;
    await t.call(`/v1/jobs/voice/translate/${job_id}`);
    // The upload URL is the server's own (not an operation of the description): called directly.
    const upload = () =>
      fetch(upload_url!, {
        method: 'PUT',
        headers: {
          authorization: `Service-Signature ${signature}`,
          'content-type': 'application/octet-stream',
        },
        body: audio,
      });
    // Once more if a kept-alive connection the server had closed was reused (the request never arrived).
    const uploaded = await upload().catch(upload);
    expect(uploaded.status).toBe(204);
    const complete = (statuses: string[]) =>
      statuses.length > 0 && statuses.every((status) => status === 'complete');
    let statuses: string[] = [];
    for (let attempt = 0; attempt < 600 && !complete(statuses); attempt++) {
      const polled = await t.call(`/v1/jobs/voice/translate/${job_id}?include=signed_url`);
      statuses = ((await polled.json()) as { results: { status: string }[] }).results.map((r) => r.status);
      if (!complete(statuses)) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statuses).toEqual(['complete', 'complete', 'complete']);
    await t.call('/v1/jobs/voice/translate', {
      json: {
        source_file: { name: 'speech.wav', content_type: 'audio/wav', content_length: audio.length },
        targets: [{ language: 'es', type: 'audio/wav' }],
      },
    });
    await t.call('/v1/jobs/voice/translate/00000000-0000-4000-8000-000000000000');
    const answers = t.exchanges.slice(first);
    expect(answers.slice(-2).map((exchange) => exchange.status)).toEqual([400, 404]);
    expect(answers.map(deviation).filter(Boolean)).toEqual([]);
  });
});
