import { describe, expect, it } from 'vitest';
import {
  CreateGlossaryRequest,
  CreateStyleRuleListRequest,
  createValidator,
  DetectRequest,
  decodeForm,
  LanguagesQuery,
  TranslateRequest,
  UploadDocumentFields,
} from '../src/index.js';

describe('decodeForm', () => {
  it('reads booleans as 0/1/true/false and passes anything else on for validation to reject', () => {
    const decode = (value: string) =>
      decodeForm(`text=a&target_lang=de&preserve_formatting=${value}`, TranslateRequest);
    expect(decode('1').preserve_formatting).toBe(true);
    expect(decode('true').preserve_formatting).toBe(true);
    expect(decode('0').preserve_formatting).toBe(false);
    expect(decode('false').preserve_formatting).toBe(false);
    const yes = decode('yes');
    expect(yes.preserve_formatting).toBe('yes');
    const result = createValidator(TranslateRequest).validate(yes);
    expect(result.ok ? 'ok' : result.message).toBe("Parameter 'preserve_formatting' must be a boolean.");
  });

  it('builds arrays of objects from dictionaries[0].source_lang=... keys, in index order', () => {
    const body = [
      'name=multilingual',
      'dictionaries[1].source_lang=en',
      'dictionaries[1].target_lang=de',
      'dictionaries[1].entries=car%09Auto',
      'dictionaries[1].entries_format=tsv',
      'dictionaries[0].source_lang=en',
      'dictionaries[0].target_lang=es',
      'dictionaries[0].entries=car%2Ccoche',
      'dictionaries[0].entries_format=csv',
    ].join('&');
    const decoded = decodeForm(body, CreateGlossaryRequest);
    expect(decoded).toEqual({
      name: 'multilingual',
      dictionaries: [
        { source_lang: 'en', target_lang: 'es', entries: 'car,coche', entries_format: 'csv' },
        { source_lang: 'en', target_lang: 'de', entries: 'car\tAuto', entries_format: 'tsv' },
      ],
    });
    expect(createValidator(CreateGlossaryRequest).check(decoded)).toBe(true);
  });

  it('closes gaps in indexed keys instead of leaving holes', () => {
    const decoded = decodeForm('name=x&dictionaries[3].source_lang=en', CreateGlossaryRequest);
    expect(decoded['dictionaries']).toEqual([{ source_lang: 'en' }]);
  });

  it('builds nested objects from dotted keys and coerces their values by the schema', () => {
    const body =
      'name=house&language=en&configured_rules.punctuation.periods_in_academic_degrees=do_not_use' +
      '&custom_instructions[0].label=l&custom_instructions[0].prompt=p';
    expect(decodeForm(body, CreateStyleRuleListRequest)).toEqual({
      name: 'house',
      language: 'en',
      configured_rules: { punctuation: { periods_in_academic_degrees: 'do_not_use' } },
      custom_instructions: [{ label: 'l', prompt: 'p' }],
    });
  });

  it('splits comma-joined glossary_ids and keeps repeated text fields in order', () => {
    const decoded = decodeForm(
      'text=b&text=a&target_lang=es&glossary_ids=g1, g2&glossary_ids=g3',
      TranslateRequest,
    );
    expect(decoded['text']).toEqual(['b', 'a']);
    expect(decoded['glossary_ids']).toEqual(['g1', 'g2', 'g3']);
  });

  it('keeps a single value of a string-or-list parameter a string, and repeats make a list', () => {
    expect(decodeForm('resource=voice&include=beta', LanguagesQuery)).toEqual({
      resource: 'voice',
      include: 'beta',
    });
    expect(decodeForm('splitting_tags=p,br', TranslateRequest)['splitting_tags']).toBe('p,br');
    expect(decodeForm('ignore_tags=x&ignore_tags=y', TranslateRequest)['ignore_tags']).toEqual(['x', 'y']);
  });

  it('turns digits into integers only where the schema wants a number', () => {
    const decoded = decodeForm(
      'target_lang=es&translation_memory_threshold=80&source_lang=123',
      UploadDocumentFields,
    );
    expect(decoded).toEqual({ target_lang: 'es', translation_memory_threshold: 80, source_lang: '123' });
    expect(decodeForm('target_lang=es&translation_memory_threshold=8x', UploadDocumentFields)).toMatchObject({
      translation_memory_threshold: '8x',
    });
  });

  it('keeps a repeated scalar as a list, so validation reports the wrong type', () => {
    const decoded = decodeForm('text=a&target_lang=de&target_lang=fr', TranslateRequest);
    const result = createValidator(TranslateRequest).validate(decoded);
    expect(result.ok ? 'ok' : result.message).toBe("Parameter 'target_lang' must be a string.");
  });

  it('never merges __proto__, constructor or prototype keys; they fail as unknown parameters', () => {
    const decoded = decodeForm(
      'text=a&__proto__.polluted=1&constructor.prototype.polluted=1&__proto__[0].x=1&__proto__=2',
      DetectRequest,
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.keys(decoded).sort()).toEqual(
      ['text', '__proto__.polluted', 'constructor.prototype.polluted', '__proto__[0].x', '__proto__'].sort(),
    );
    const result = createValidator(DetectRequest).validate(decoded);
    expect(result.ok ? 'ok' : result.message).toMatch(/^Unknown parameter '/);
  });
});
