import { describe, expect, it } from 'vitest';
import { createValidator, decodeForm, QualityEvaluateResponse, TranslateRequest } from '../src/index.js';

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
