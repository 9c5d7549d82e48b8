import { describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  checkAnalyticsRange,
  checkTranslateRules,
  checkWriteRules,
  createValidator,
  documentExtension,
  END_OF_SOURCE_MEDIA,
  effectiveWriteStyle,
  isFreePlanKey,
  isRetryableStatus,
  normalizeReportingTag,
  parseAuthorizationHeader,
  STATUS_MEANINGS,
  styleListAppliesTo,
  TRACE_ID_HEADER,
  TRACE_ID_PATTERN,
  VoiceClientMessage,
  VoiceServerMessage,
  withoutPreferPrefix,
} from '../src/index.js';

const G = '0b7e5f5a-0000-4000-8000-000000000001';

describe('normalizeReportingTag', () => {
  it('trims and lower-cases', () => {
    expect(normalizeReportingTag('  Marketing-Q4 ')).toEqual({ ok: true, tag: 'marketing-q4' });
  });

  it('accepts 100 characters and refuses 101', () => {
    expect(normalizeReportingTag('a'.repeat(100))).toEqual({ ok: true, tag: 'a'.repeat(100) });
    expect(normalizeReportingTag('a'.repeat(101))).toEqual({
      ok: false,
      message: "Header 'X-Service-Reporting-Tag' is too long (at most 100 characters).",
    });
  });

  it('counts the length after trimming', () => {
    expect(normalizeReportingTag(`  ${'a'.repeat(100)}  `)).toEqual({ ok: true, tag: 'a'.repeat(100) });
  });

  it.each([['team a'], ['équipe'], ['tab\there'], ['emoji😀']])(
    'refuses %j (whitespace inside or non-ASCII)',
    (tag) => {
      expect(normalizeReportingTag(tag)).toEqual({
        ok: false,
        message: "Header 'X-Service-Reporting-Tag' must be printable ASCII characters without whitespace.",
      });
    },
  );

  it('refuses an empty tag and a repeated header; takes a one-element list', () => {
    expect(normalizeReportingTag('   ')).toEqual({
      ok: false,
      message: "Header 'X-Service-Reporting-Tag' must not be empty.",
    });
    expect(normalizeReportingTag(['a', 'b'])).toEqual({
      ok: false,
      message: "Header 'X-Service-Reporting-Tag' must be sent once.",
    });
    expect(normalizeReportingTag(['A'])).toEqual({ ok: true, tag: 'a' });
  });
});

describe('checkAnalyticsRange', () => {
  it('accepts 366 days and refuses 367', () => {
    expect(checkAnalyticsRange({ start_date: '2025-01-01', end_date: '2026-01-02' })).toBeUndefined();
    expect(checkAnalyticsRange({ start_date: '2025-01-01', end_date: '2026-01-03' })).toBe(
      "The range from 'start_date' to 'end_date' must not exceed 366 days.",
    );
  });

  it('counts leap days: 2024-01-01 to 2025-01-01 is 366 days', () => {
    expect(checkAnalyticsRange({ start_date: '2024-01-01', end_date: '2025-01-01' })).toBeUndefined();
    expect(checkAnalyticsRange({ start_date: '2024-01-01', end_date: '2025-01-02' })).toBeDefined();
  });

  it('accepts a single day and refuses an end before the start', () => {
    expect(checkAnalyticsRange({ start_date: '2025-03-01', end_date: '2025-03-01' })).toBeUndefined();
    expect(checkAnalyticsRange({ start_date: '2025-03-02', end_date: '2025-03-01' })).toBe(
      "Parameter 'end_date' must not be before 'start_date'.",
    );
  });

  it('refuses dates it cannot read', () => {
    expect(checkAnalyticsRange({ start_date: 'soon', end_date: '2025-03-01' })).toBe(
      "Parameters 'start_date' and 'end_date' must be dates (YYYY-MM-DD).",
    );
  });
});

describe('checkTranslateRules', () => {
  it('refuses glossary_id with glossary_ids, a glossary without source_lang, matches without a memory', () => {
    expect(
      checkTranslateRules({
        text: ['a'],
        target_lang: 'de',
        source_lang: 'en',
        glossary_id: G,
        glossary_ids: [G],
      }),
    ).toBe("Use either 'glossary_id' or 'glossary_ids', not both.");
    expect(checkTranslateRules({ text: ['a'], target_lang: 'de', glossary_ids: [G] })).toBe(
      "'source_lang' is required when a glossary is used.",
    );
    expect(
      checkTranslateRules({ text: ['a'], target_lang: 'de', show_translation_memory_matches: true }),
    ).toBe("'show_translation_memory_matches' requires 'translation_memory_id'.");
  });

  it('accepts the valid combinations', () => {
    expect(
      checkTranslateRules({ text: ['a'], target_lang: 'de', source_lang: 'en', glossary_id: G }),
    ).toBeUndefined();
    expect(
      checkTranslateRules({
        text: ['a'],
        target_lang: 'de',
        translation_memory_id: G,
        show_translation_memory_matches: true,
      }),
    ).toBeUndefined();
  });
});

describe('write rules', () => {
  it('refuses writing_style with tone', () => {
    expect(checkWriteRules({ writing_style: 'business', tone: 'friendly' })).toBe(
      'Both writing_style and tone defined, currently only one of them can be used at a time.',
    );
    expect(checkWriteRules({ tone: 'friendly' })).toBeUndefined();
    expect(checkWriteRules({ writing_style: 'default', tone: 'friendly' })).toBeUndefined();
    expect(checkWriteRules({ writing_style: 'business', tone: 'default' })).toBeUndefined();
    expect(effectiveWriteStyle({ writing_style: 'default', tone: 'friendly' })).toEqual({ tone: 'friendly' });
    expect(effectiveWriteStyle({ writing_style: 'business', tone: 'default' })).toEqual({
      writing_style: 'business',
    });
    expect(effectiveWriteStyle({ writing_style: 'default', tone: 'default' })).toEqual({ tone: 'default' });
  });

  it('strips the prefer_ prefix', () => {
    expect(withoutPreferPrefix('prefer_business')).toBe('business');
    expect(withoutPreferPrefix('casual')).toBe('casual');
  });
});

describe('small helpers', () => {
  it('applies a root-language style list to its variants only', () => {
    expect(styleListAppliesTo('en', 'EN-US')).toBe(true);
    expect(styleListAppliesTo('en', 'en-gb')).toBe(true);
    expect(styleListAppliesTo('en', 'ES')).toBe(false);
  });

  it('reads document extensions case-insensitively and refuses unknown ones', () => {
    expect(documentExtension('Report.DOCX')).toBe('docx');
    expect(documentExtension('scan.jpeg')).toBe('jpeg');
    expect(documentExtension('a.exe')).toBeUndefined();
    expect(documentExtension('docx')).toBeUndefined();
  });

  it('retries 429 and 5xx only', () => {
    expect([400, 403, 404, 413, 415, 429, 456, 500, 502, 503, 504, 599].map(isRetryableStatus)).toEqual([
      false, false, false, false, false, true, false, true, true, true, true, true,
    ]); // biome-ignore format: one row
    for (const [status, meaning] of Object.entries(STATUS_MEANINGS)) {
      expect(meaning.retryable, status).toBe(isRetryableStatus(Number(status)));
    }
  });
});

describe('voice stream messages', () => {
  const server = createValidator(VoiceServerMessage);

  it('accepts each server message type and the client end message', () => {
    const messages = [
      { type: 'partial', segment_id: 0, text: 'Hello th' },
      { type: 'transcript', segment_id: 0, text: 'Hello there.', language: 'en' },
      { type: 'translation', segment_id: 0, target_language: 'es', text: 'Hola.' },
      { type: 'end_of_stream' },
      { type: 'error', message: 'audio unreadable' },
    ];
    expect(messages.map((message) => server.check(message))).toEqual([true, true, true, true, true]);
    expect(createValidator(VoiceClientMessage).check(END_OF_SOURCE_MEDIA)).toBe(true);
  });

  it('refuses an unknown type and a translation without its target', () => {
    expect(server.check({ type: 'final', text: 'x' })).toBe(false);
    expect(server.check({ type: 'translation', segment_id: 0, text: 'Hola.' })).toBe(false);
    expect(server.check({ type: 'partial', text: 'Hello th' })).toBe(false);
  });

  it('keeps final source text only in transcript messages (partials and translations name neither)', () => {
    // A reader that joins messages whose keys or type mention "final" or "transcript" gets the transcript.
    const marker = /final|transcript/i;
    const partial = { type: 'partial', segment_id: 0, text: 'x' };
    const translation = { type: 'translation', segment_id: 0, target_language: 'es', text: 'y' };
    for (const message of [partial, translation]) {
      expect(marker.test(JSON.stringify(Object.keys(message)) + message.type)).toBe(false);
    }
  });
});

describe('authorization', () => {
  it('writes and reads Service-Auth-Key headers strictly', () => {
    expect(authorizationHeader('abc:fx')).toBe('Service-Auth-Key abc:fx');
    expect(parseAuthorizationHeader('Service-Auth-Key abc:fx')).toBe('abc:fx');
    for (const bad of [
      undefined,
      '',
      'Service-Auth-Key',
      'Service-Auth-Key ',
      'Service-Auth-Key  abc',
      'Bearer abc',
      'service-auth-key abc',
      'Service-Auth-Key a b',
    ]) {
      expect(parseAuthorizationHeader(bad), String(bad)).toBeUndefined();
    }
  });

  it('tells free-plan keys by their suffix', () => {
    expect(isFreePlanKey('0f1e:fx')).toBe(true);
    expect(isFreePlanKey('0f1e')).toBe(false);
  });

  it('describes trace ids as 32 lower-case hex characters', () => {
    expect(TRACE_ID_PATTERN.test('0123456789abcdef0123456789abcdef')).toBe(true);
    expect(TRACE_ID_PATTERN.test('0123456789ABCDEF0123456789ABCDEF')).toBe(false);
    expect(TRACE_ID_HEADER).toBe('x-trace-id');
  });
});
