import { evaluateSegments } from '@glossa/quality';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQaCheck, createTranslationRun, type RunSegment, type Translator } from '../src/index.js';
import { startTestServer } from './helpers/server.js';

let env: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  env = await startTestServer();
});
afterAll(async () => {
  await env?.close();
});

describe('QA gate with @glossa/quality', () => {
  it('reports what the checks find in real output, with file; an injected number change is caught', async () => {
    const segments: RunSegment[] = [
      { key: 'a', file: 'app.json', source: 'You have 3 new messages.' },
      { key: 'b', file: 'app.json', source: 'Open the <g id="1">settings</g>.' },
    ];
    // Fault injection over the real server: the translation of "a" loses its number.
    const changing: Translator = {
      async translateText(texts, options) {
        const result = await env.client.translateText(texts, options);
        return result.map((r, i) => (texts[i]!.includes('3') ? { ...r, text: r.text.replace('3', '4') } : r));
      },
    };
    const run = createTranslationRun({
      translator: changing,
      sourceLang: 'en',
      targetLangs: ['es'],
      qa: createQaCheck(evaluateSegments, { sourceLang: 'en', minSeverity: 'major' }),
    });
    const { report, targets } = await run.translate({ segments });
    const direct = evaluateSegments(
      segments.map((s) => ({ source: s.source, translation: targets.get('es')!.get(s.key)! })),
      { sourceLang: 'en', targetLang: 'es' },
    );
    const expected = direct.flatMap((issues, i) =>
      issues
        .filter((issue) => issue.severity !== 'minor')
        .map((issue) => ({
          locale: 'es',
          key: segments[i]!.key,
          file: 'app.json',
          severity: issue.severity,
          message: `${issue.check}: ${issue.message}`,
        })),
    );
    expect(report.qa).toEqual(expected);
    expect(report.qa).toContainEqual({
      locale: 'es',
      key: 'a',
      file: 'app.json',
      severity: 'major',
      message: 'number_mismatch: The number 4 differs from 3 in the source.',
    });
  });
});
