import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  BadRequestError,
  GlossaClient,
  type GlossaError,
  QuotaExceededError,
  RequestAbortedError,
  RequestTooLargeError,
} from '../src/index.js';
import { startRealServer, today } from './real-server.js';

const real = await startRealServer();
afterAll(() => real.close());
beforeEach(() => {
  real.fetchCalls.count = 0;
  real.fetchCalls.urls.length = 0;
});

async function failure(promise: Promise<unknown>): Promise<GlossaError> {
  try {
    await promise;
  } catch (error) {
    return error as GlossaError;
  }
  throw new Error('expected the call to fail');
}

describe('translate against the real server', () => {
  it('pseudo-localizes to en-XA, one translation per text, in order', async () => {
    const client = real.client();
    const results = await client.translateText(['Hello world', 'Save'], {
      targetLang: 'en-XA',
      sourceLang: 'en',
    });
    expect(results.map((result) => result.text)).toEqual(['[Ĥééļļöö ŵöööŕļð]', '[Šåṽéé]']);
    expect(results[0]?.detected_source_language).toBe('EN');
    const single = await client.translateText('Hello world', {
      targetLang: 'en-XA',
      unknownOption: 1,
    } as never);
    expect(single.text).toBe('[Ĥééļļöö ŵöööŕļð]');
    expect(real.fetchCalls.count).toBe(2);
  });

  it('returns billed characters when asked', async () => {
    const response = await real.client().translateTextResponse(['Hello world'], {
      targetLang: 'en-XA',
      sourceLang: 'en',
      showBilledCharacters: true,
    });
    expect(response.translations[0]?.billed_characters).toBe(11);
  });

  it('translates English to Spanish with Apertium', async () => {
    const result = await real
      .client()
      .translateText('The cat is black.', { targetLang: 'es', sourceLang: 'en' });
    expect(result.text).toBe('El gato es negro.');
  });

  it('throws AuthorizationError for a bad key, with the 32-hex trace id, tried once', async () => {
    const error = await failure(
      real.client({ authKey: 'not-a-real-key' }).translateText('Hello', { targetLang: 'en-XA' }),
    );
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error.status).toBe(403);
    expect(error.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(error.message).not.toContain('not-a-real-key');
    expect(real.fetchCalls.count).toBe(1);
  });

  it('throws BadRequestError for an unknown target language', async () => {
    const error = await failure(real.client().translateText('Hello', { targetLang: 'xx-nope' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.status).toBe(400);
    expect(real.fetchCalls.count).toBe(1);
  });

  it('throws RequestTooLargeError for a body over 128 KiB, tried once', async () => {
    const error = await failure(real.client().translateText('a'.repeat(130 * 1024), { targetLang: 'en-XA' }));
    expect(error).toBeInstanceOf(RequestTooLargeError);
    expect(error.status).toBe(413);
    expect(real.fetchCalls.count).toBe(1);
  });

  it('throws QuotaExceededError when the account limit is used up, tried once', async () => {
    const { key } = await real.createAccount({ plan: 'paid', characterLimit: 5 });
    const error = await failure(
      real.client({ authKey: key }).translateText('Hello world', { targetLang: 'en-XA' }),
    );
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.status).toBe(456);
    expect(real.fetchCalls.count).toBe(1);
  });

  it('uses the free base URL for a :fx key, and the paid URL refuses it', async () => {
    const { key } = await real.createAccount({ plan: 'free' });
    expect(key.endsWith(':fx')).toBe(true);
    const free = new GlossaClient({ authKey: key, serverUrl: real.freeUrl });
    expect((await free.translateText('Save', { targetLang: 'en-XA' })).text).toBe('[Šåṽéé]');
    const error = await failure(real.client({ authKey: key }).translateText('Save', { targetLang: 'en-XA' }));
    expect(error).toBeInstanceOf(AuthorizationError);
  });

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(
      real.client().translateText('Hello', { targetLang: 'en-XA', signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(real.fetchCalls.count).toBe(0);
  });
});

describe('usage against the real server', () => {
  it('counts the characters of each translation', async () => {
    const { key } = await real.createAccount({ plan: 'paid' });
    const client = real.client({ authKey: key });
    expect((await client.getUsage()).character_count).toBe(0);
    await client.translateText(['Hello world', 'Save'], { targetLang: 'en-XA' });
    const usage = await client.getUsage();
    expect(usage.character_count).toBe(15);
    expect(usage.character_limit).toBe(1_000_000_000_000);
  });
});

describe('languages against the real server', () => {
  it('lists target languages and caches the lookup for the hour', async () => {
    const client = real.client();
    const languages = await client.getLanguages('translate_text');
    expect(languages.some((language) => language.lang === 'en-XA' && language.usable_as_target)).toBe(true);
    languages.length = 0; // a caller's copy: the cache keeps its own
    expect((await client.getLanguages('translate_text')).length).toBeGreaterThan(0);
    expect(real.fetchCalls.count).toBe(1);
    await client.getLanguages('translate_text', { refresh: true });
    expect(real.fetchCalls.count).toBe(2);
    client.clearLanguageCache();
    await client.getLanguages('translate_text', { include: ['beta'] });
    expect(real.fetchCalls.count).toBe(3);
  });

  it('does not cache when languagesCacheTtl is 0', async () => {
    const client = real.client({ languagesCacheTtl: 0 });
    await client.getLanguages('translate_text');
    await client.getLanguages('translate_text');
    expect(real.fetchCalls.count).toBe(2);
  });

  it('lists v2 target languages in upper case (deprecated endpoint)', async () => {
    const targets = await real.client().getLanguagesV2('target');
    expect(targets.some((language) => language.language === 'EN-XA')).toBe(true);
    await expect(real.client().getLanguagesV2('both' as 'source')).rejects.toThrow(TypeError);
  });

  it('lists the resources and their features', async () => {
    const resources = await real.client().getResources();
    expect(resources.map((resource) => resource.name)).toContain('translate_text');
  });
});

describe('custom-tag analytics against the real server', () => {
  it('reports usage by reporting tag across every page', async () => {
    const { key } = await real.createAccount({ plan: 'paid', admin: true });
    const tagged = real.client({ authKey: key, reportingTag: 'client-test' });
    await tagged.translateText('Hello world', { targetLang: 'en-XA' });
    const entries = [];
    for await (const entry of tagged.customTagUsage({ startDate: today(), endDate: today() }))
      entries.push(entry);
    const entry = entries.find((item) => item.custom_tag === 'client-test');
    expect(entry?.breakdown.text_translation_characters).toBe(11);
    const notAdmin = await real.createAccount({ plan: 'paid' });
    const error = await failure(
      real.client({ authKey: notAdmin.key }).customTagUsagePage({ startDate: today(), endDate: today() }),
    );
    expect(error).toBeInstanceOf(AuthorizationError);
  });
});
