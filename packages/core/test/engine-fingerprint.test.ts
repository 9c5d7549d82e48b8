/** The embedded server's engine fingerprint per locale, from the config's `engines` and the environment. */
import { describe, expect, it } from 'vitest';
import { engineFingerprint, enginesFor } from '../src/config.js';

const openai = (model: string, extra: object = {}) => ({
  order: { default: ['pseudo', 'apertium'], de: ['openai', 'deepl'] },
  providers: { openai: { baseUrl: 'http://127.0.0.1:11434/v1', model, ...extra } },
});

describe('engineFingerprint', () => {
  it('changes with the model, the host and the order, not with keys, concurrency or prices', () => {
    const a = engineFingerprint(openai('llama3.1'), 'en', 'de', {});
    expect(a).toContain('llama3.1');
    expect(engineFingerprint(openai('qwen2.5'), 'en', 'de', {})).not.toBe(a);
    expect(
      engineFingerprint(openai('llama3.1', { baseUrl: 'http://other:8000/v1' }), 'en', 'de', {}),
    ).not.toBe(a);
    const reordered = { ...openai('llama3.1'), order: { de: ['deepl', 'openai'] } };
    expect(engineFingerprint(reordered, 'en', 'de', {})).not.toBe(a);
    const secret = 'sk-not-in-the-fingerprint';
    const other = openai('llama3.1', { apiKey: secret, concurrency: 9, price: { perMillionCharacters: 1 } });
    expect(engineFingerprint(other, 'en', 'de', { OPENAI_API_KEY: secret, DEEPL_AUTH_KEY: secret })).toBe(a);
  });

  it('reads the settings the config leaves out from the environment, as the server does', () => {
    const engines = { order: { default: ['openai'] } };
    const one = engineFingerprint(engines, 'en', 'ja', { GLOSSA_OPENAI_MODEL: 'gpt-4o' });
    const two = engineFingerprint(engines, 'en', 'ja', { GLOSSA_OPENAI_MODEL: 'gpt-4.1' });
    expect(one).not.toBe(two);
    expect(engineFingerprint(engines, 'en', 'ja', { DEEPL_SERVER_URL: 'http://x' })).toBe(
      engineFingerprint(engines, 'en', 'ja', {}),
    );
    // The config wins over the environment.
    const given = { ...engines, providers: { openai: { model: 'm' } } };
    expect(engineFingerprint(given, 'en', 'ja', { GLOSSA_OPENAI_MODEL: 'gpt-4o' })).toBe(
      engineFingerprint(given, 'en', 'ja', {}),
    );
  });

  it("is undefined where the server's default serves the locale (caches from before stay valid)", () => {
    expect(engineFingerprint(undefined, 'en', 'es', {})).toBeUndefined();
    expect(engineFingerprint(openai('m'), 'en', 'es', {})).toBeUndefined(); // default: pseudo, apertium
    expect(
      engineFingerprint({ order: { default: ['apertium', 'upstream'] } }, 'en', 'es', {}),
    ).toBeUndefined();
    expect(engineFingerprint(openai('m'), 'en', 'en-XA', {})).toBeUndefined(); // only pseudo serves it
    expect(engineFingerprint({ order: { default: ['openai'] } }, 'en', 'ar-XB', {})).toBeUndefined();
    expect(engineFingerprint(openai('m'), 'en', 'de-AT', {})).toBe(
      engineFingerprint(openai('m'), 'en', 'de', {}),
    );
  });
});

describe('enginesFor', () => {
  it('picks the pair, the target, its base language, then default, like the server', () => {
    const engines = {
      order: { default: ['apertium'], de: ['deepl'], 'pt-BR': ['openai'], 'en:ja': ['anthropic'] },
    };
    expect(enginesFor(engines, 'en', 'ja')).toEqual(['anthropic']);
    expect(enginesFor(engines, 'en-US', 'ja')).toEqual(['anthropic']);
    expect(enginesFor(engines, 'fr', 'ja')).toEqual(['apertium']);
    expect(enginesFor(engines, 'en', 'de-CH')).toEqual(['deepl']);
    expect(enginesFor(engines, 'en', 'pt-br')).toEqual(['openai']);
    expect(enginesFor(engines, 'en', 'pt-PT')).toEqual(['apertium']);
    expect(enginesFor(undefined, 'en', 'es')).toEqual(['pseudo', 'apertium']);
  });
});
