import { describe, expect, it } from 'vitest';
import {
  createRequestValidator,
  createValidator,
  decodeForm,
  ENDPOINTS,
  QualityEvaluateResponse,
  TranslateRequest,
} from '../src/index.js';

const translate = createValidator(TranslateRequest);

describe('TranslateRequest', () => {
  it('accepts the minimal request', () => {
    expect(translate.validate({ text: ['Hello'], target_lang: 'DE' }).ok).toBe(true);
  });

  it('names a missing required parameter', () => {
    const result = translate.validate({ text: ['Hello'] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toBe("Missing required parameter 'target_lang'.");
  });

  it('decodes a form body with repeated and comma-joined keys', () => {
    const body =
      'text=a&text=b&target_lang=es&show_billed_characters=1&glossary_ids=a,b&translation_memory_threshold=80';
    expect(decodeForm(body, TranslateRequest)).toEqual({
      text: ['a', 'b'],
      target_lang: 'es',
      show_billed_characters: true,
      glossary_ids: ['a', 'b'],
      translation_memory_threshold: 80,
    });
  });
});

describe('QualityEvaluateResponse', () => {
  const quality = createValidator(QualityEvaluateResponse);
  const issue = { category: 'markup', severity: 'major', message: 'Tag <b> is missing.', start: 0, end: 4 };

  it('carries the name of the check that found each issue', () => {
    expect(quality.validate({ segments: [{ issues: [{ ...issue, check: 'missing_tag' }] }] }).ok).toBe(true);
    expect(quality.validate({ segments: [{ issues: [issue] }] }).ok).toBe(false);
  });
});

describe('createRequestValidator', () => {
  it('drops unknown top-level parameters and validates the known ones exactly', () => {
    const translate = createRequestValidator(ENDPOINTS.translateText.body);
    const ok = translate.validate({ text: ['Hi'], target_lang: 'DE', example_extra_param: true });
    expect(ok).toEqual({ ok: true, value: { text: ['Hi'], target_lang: 'DE' } });
    const bad = translate.validate({ text: ['Hi'], target_lang: 'DE', extra: 1, formality: 'very' });
    expect(bad.ok ? 'ok' : bad.message).toMatch(/^Value for 'formality' not supported/);
    const proto = JSON.parse('{"text":["Hi"],"target_lang":"DE","__proto__":{"polluted":1}}');
    expect(translate.validate(proto)).toEqual({ ok: true, value: { text: ['Hi'], target_lang: 'DE' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps the parameters a schema refuses by name, and unknown keys inside nested objects', () => {
    const correct = createRequestValidator(ENDPOINTS.correctText.body);
    const refused = correct.validate({ text: ['Hi'], target_lang: 'en-US', writing_style: 'business' });
    expect(refused.ok ? 'ok' : refused.message).toBe("Unknown parameter 'writing_style'.");
    const rules = createRequestValidator(ENDPOINTS.createStyleRuleList.body);
    const nested = rules.validate({
      name: 'n',
      language: 'en',
      custom_instructions: [{ label: 'l', prompt: 'p', colour: 'red' }],
    });
    expect(nested.ok ? 'ok' : nested.message).toBe("Unknown parameter 'custom_instructions[0].colour'.");
  });
});
