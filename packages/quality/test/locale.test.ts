/**
 * A check's answer does not depend on the server process's locale: the same evaluations run in two child
 * processes, one under a Turkish locale (where `toLocaleLowerCase()` makes `I` a dotless `ı` in a text
 * that is not all Latin-1: V8 lower-cases those without the locale), one under C.UTF-8, answer the same, and what the segments' languages mean: `FILE` holds the English term `file`,
 * `İSTANBUL` the Turkish term `istanbul`, `IS IS` is English's legitimate `is is`.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lowerCase } from '../src/case.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** Runs the evaluations in a child process under `locale`; answers its default locale and the issues. */
function evaluateUnder(locale: string): { locale: string; dotless: boolean; issues: unknown } {
  const code = `
    import { evaluateSegments } from ${JSON.stringify(`${packageDir}src/index.ts`)};
    const glossary = [{ source: 'file', target: 'archivo' }, { source: 'istanbul', target: 'Estambul' }];
    const issues = [
      evaluateSegments([{ source: 'Open the FILE menu — now.', translation: 'Abra el menú — ahora.' }], { glossary, sourceLang: 'en', targetLang: 'es' }),
      evaluateSegments([{ source: "İSTANBUL'DA kaldım.", translation: 'Me quedé en la ciudad.' }], { glossary, sourceLang: 'tr', targetLang: 'es' }),
      evaluateSegments([{ source: 'Das ist gut.', translation: 'THIS IS IS good.' }], { sourceLang: 'de', targetLang: 'en' }),
    ];
    const locale = Intl.DateTimeFormat().resolvedOptions().locale;
    console.log(JSON.stringify({ locale, dotless: 'I—'.toLocaleLowerCase() === 'ı—', issues }));
  `;
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--conditions', '@glossa/source', '--input-type=module', '-e', code],
    { cwd: packageDir, env: { ...process.env, LANG: locale, LC_ALL: locale }, encoding: 'utf8' },
  );
  return JSON.parse(output);
}

describe('case folding', () => {
  it('answers the same under a Turkish and a C process locale, in the segments’ languages', () => {
    const turkish = evaluateUnder('tr_TR.UTF-8');
    const c = evaluateUnder('C.UTF-8');
    // The Turkish child really lower-cases in Turkish by default (what the checks followed before).
    expect([turkish.locale, turkish.dotless]).toEqual(['tr-TR', true]);
    expect(c.dotless).toBe(false);
    const term = (source: string, target: string, end: number) => ({
      check: 'glossary_term',
      category: 'terminology',
      severity: 'major',
      message: `The glossary term "${source}" should be translated as "${target}".`,
      start: 0,
      end,
    });
    const expected = [[[term('file', 'archivo', 21)]], [[term('istanbul', 'Estambul', 22)]], [[]]];
    expect(turkish.issues).toEqual(expected);
    expect(c.issues).toEqual(expected);
  });

  it('lower-cases Turkish, Azeri and Lithuanian in their own way, every other language and none alike', () => {
    const text = 'IİÌ — DIŞ';
    expect(lowerCase(text, 'tr')).toBe('ıiì — dış');
    expect(lowerCase(text, 'TR-tr')).toBe('ıiì — dış');
    expect(lowerCase(text, 'az')).toBe('ıiì — dış');
    expect(lowerCase(text, 'tr_TR')).toBe('ıiì — dış');
    // Lithuanian keeps the dot of i under an accent: Ì is i, combining dot above, combining grave.
    expect(lowerCase(text, 'lt')).toBe('ii\u0307i\u0307\u0300 — diş');
    for (const lang of ['en', 'de', 'xx-not a tag', '', undefined])
      expect(lowerCase(text, lang), String(lang)).toBe('ii\u0307ì — diş');
  });
});
