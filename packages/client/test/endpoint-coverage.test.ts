import { rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENDPOINT_LIST } from '@glossa/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { GlossaClient } from '../src/index.js';
import { type ScriptedRequest, sendJson, startScriptedServer } from './scripted-server.js';

const server = await startScriptedServer();
afterAll(() => server.close());

/** One body that satisfies every method's reading of a response. */
function answer(request: ScriptedRequest, res: ServerResponse): void {
  if (request.method === 'DELETE' || (request.method === 'PUT' && request.path.includes('/signed/'))) {
    res.writeHead(204).end();
    return;
  }
  if (request.path.startsWith('/v2/glossaries/') && request.path.endsWith('/entries')) {
    res.writeHead(200, { 'content-type': 'text/tab-separated-values' }).end('cat\tgato');
    return;
  }
  if (request.path.endsWith('/result') || request.path.startsWith('/signed/')) {
    if (!request.path.startsWith('/v3/voice')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('bytes');
      return;
    }
  }
  sendJson(res, 200, {
    translations: [{ detected_source_language: 'EN', text: 't' }],
    improvements: [],
    results: [{ status: 'completed', download_url: '/signed/download', translation_memory_id: 'tm' }],
    segments: [],
    glossaries: [],
    dictionaries: [],
    style_rules: [],
    translation_memories: [],
    supported_languages: [],
    spoken_terms: [],
    custom_tag_usage_report: { usage: [], next_page: null },
    next_page_cursor: null,
    job_id: 'job',
    upload_url: '/signed/upload',
    signed_upload_url: '/signed/upload',
    document_id: 'd'.repeat(32),
    document_key: 'k'.repeat(64),
    status: 'done',
    id: 'instruction',
  });
}

describe('endpoint coverage, against a scripted loopback service (fake: records what each method sends)', () => {
  it('calls every endpoint of the protocol table with the right method and path', async () => {
    server.routes({ '*': answer });
    const client = new GlossaClient({ authKey: 'k', serverUrl: server.url, languagesCacheTtl: 0 });
    const handle = { document_id: 'd'.repeat(32), document_key: 'k'.repeat(64) };
    const dictionary = { sourceLang: 'en', targetLang: 'es', entries: [{ source: 'a', target: 'b' }] };
    const instruction = { label: 'l', prompt: 'p' };
    const file = Buffer.from('x');
    const collect = async (iterable: AsyncIterable<unknown>) => {
      for await (const _ of iterable);
    };
    await client.translateText('a', { targetLang: 'es' });
    await client.getLanguages('translate_text');
    await client.getResources();
    await client.getLanguagesV2('target');
    await client.glossariesV2.languagePairs();
    await client.getUsage();
    await collect(client.customTagUsage({ startDate: '2026-01-01', endDate: '2026-01-02' }));
    await client.rephraseText('a', { targetLang: 'en-US' });
    await client.correctText('a', { targetLang: 'en-US' });
    await client.detectLanguage('a');
    await client.evaluateQuality({
      sourceLang: 'en',
      targetLang: 'es',
      segments: [{ source: 'a', translation: 'b' }],
    });
    await client.submitQualityEvaluation({
      sourceLang: 'en',
      targetLang: 'es',
      segments: [{ source: 'a', target: 'b' }],
    });
    await client.getQualityEvaluation('job');
    await client.glossariesV2.create({
      name: 'n',
      sourceLang: 'en',
      targetLang: 'es',
      entries: dictionary.entries,
    });
    await client.glossariesV2.list();
    await client.glossariesV2.get('g');
    await client.glossariesV2.delete('g');
    await client.glossariesV2.getEntries('g');
    await client.glossaries.create('n', [dictionary]);
    await client.glossaries.list();
    await client.glossaries.get('g');
    await client.glossaries.update('g', { name: 'm' });
    await client.glossaries.delete('g');
    await client.glossaries.getEntries('g', 'en', 'es');
    await client.glossaries.replaceDictionary('g', dictionary);
    await client.glossaries.deleteDictionary('g', 'en', 'es');
    await client.styleRules.create({ name: 'n', language: 'en' });
    await client.styleRules.list();
    await client.styleRules.get('s');
    await client.styleRules.rename('s', 'm');
    await client.styleRules.replaceConfiguredRules('s', {});
    await client.styleRules.delete('s');
    await client.styleRules.addInstruction('s', instruction);
    await client.styleRules.getInstruction('s', 'i');
    await client.styleRules.replaceInstruction('s', 'i', instruction);
    await client.styleRules.deleteInstruction('s', 'i');
    await client.translationMemories.list();
    await client.translationMemories.get('tm');
    await client.translationMemories.delete('tm');
    await collect(client.translationMemories.segments('tm'));
    await client.translationMemories.import(file, { fileName: 'a.tmx', pollInterval: 1 });
    await client.translationMemories.getJob('job');
    await client.documents.upload(file, { targetLang: 'es', fileName: 'a.txt' });
    await client.documents.getStatus(handle);
    await client.documents.download(handle);
    await client.voice.createSession({ sourceMediaContentType: 'audio/auto' });
    const voiceJob = await client.voice.createTranslateJob(
      { name: 'talk.mp3', contentType: 'audio/mpeg', contentLength: 1 },
      { targets: [{ language: 'es', type: 'text/plain' }] },
    );
    await client.voice.uploadTranslateSource(voiceJob, file, 'audio/mpeg');
    await client.voice.getTranslateJob('job');
    await client.voice.downloadTranslateResult({
      status: 'complete',
      signed_download_url: '/signed/download',
    });
    await client.voice.reconnectSession('token');
    await client.voice.createSpokenTerms({ name: 'n', language: 'en', terms: ['t'] });
    await client.voice.listSpokenTerms();
    await client.voice.getSpokenTerms('st');
    await client.voice.replaceSpokenTerms('st', { name: 'n', language: 'en', terms: ['t'] });
    await client.voice.deleteSpokenTerms('st');
    await client.voice.createJob(file, { sourceLanguage: 'en', targetLanguages: ['es'], fileName: 'a.wav' });
    await client.voice.getJob('job');
    await client.voice.getJobResult('job');
    const exported = join(tmpdir(), `glossa-coverage-${process.pid}.tmx`);
    await client.translationMemories.export('tm', exported, { pollInterval: 1 });
    await rm(exported);

    const sent = server.requests.map((request) => `${request.method} ${request.path}`);
    const missing = ENDPOINT_LIST.filter((endpoint) => endpoint.access !== 'signed_url')
      .filter((endpoint) => {
        const pattern = new RegExp(`^${endpoint.method} ${endpoint.path.replace(/:[a-z_]+/g, '[^/]+')}$`);
        return !sent.some((line) => pattern.test(line));
      })
      .map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(missing).toEqual([]);
  });
});
