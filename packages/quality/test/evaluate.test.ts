// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are test data
import { describe, expect, it } from 'vitest';
import { evaluateSegment, evaluateSegments, numericValue } from '../src/index.js';

const en_es = { sourceLang: 'en', targetLang: 'es' };

describe('evaluateSegment', () => {
  it('finds nothing in a good translation', () => {
    const issues = evaluateSegment(
      {
        source: 'Click <b>Save</b> to keep {{count}} files.',
        translation: 'Haga clic en <b>Guardar</b> para conservar {{count}} archivos.',
      },
      en_es,
    );
    expect(issues).toEqual([]);
  });

  it('reports an empty translation once, as critical, over the whole (empty) translation', () => {
    expect(evaluateSegment({ source: 'Keep <b>25</b> files.', translation: '  ' }, en_es)).toEqual([
      {
        check: 'empty_target',
        category: 'untranslated',
        severity: 'critical',
        message: 'The translation is empty.',
        start: 0,
        end: 2,
      },
    ]);
  });

  it('reports an untranslated segment', () => {
    const issues = evaluateSegment({ source: 'Save your work.', translation: 'Save your work.' }, en_es);
    expect(issues.map((issue) => issue.check)).toEqual(['untranslated']);
  });

  it('does not report same-as-source for a single word or within one language', () => {
    expect(evaluateSegment({ source: 'Glossa', translation: 'Glossa' }, en_es)).toEqual([]);
    expect(
      evaluateSegment(
        { source: 'Save your work.', translation: 'Save your work.' },
        { sourceLang: 'en-US', targetLang: 'en-GB' },
      ),
    ).toEqual([]);
  });

  it('reports a missing tag over the whole translation and a changed number at the number', () => {
    const translation = 'Haga clic en Guardar para conservar 52 archivos.';
    const issues = evaluateSegment({ source: 'Click <b>Save</b> to keep 25 files.', translation }, en_es);
    expect(issues).toEqual([
      {
        check: 'missing_tag',
        category: 'markup',
        severity: 'major',
        message: 'The tag <b> of the source is missing.',
        start: 0,
        end: 48,
      },
      {
        check: 'missing_tag',
        category: 'markup',
        severity: 'major',
        message: 'The tag </b> of the source is missing.',
        start: 0,
        end: 48,
      },
      {
        check: 'number_mismatch',
        category: 'number',
        severity: 'major',
        message: 'The number 52 differs from 25 in the source.',
        start: 36,
        end: 38,
      },
    ]);
    expect(translation.slice(36, 38)).toBe('52');
  });

  it('reports an extra tag at the tag and reordered tags at the first out-of-order tag', () => {
    expect(evaluateSegment({ source: 'Hello world.', translation: 'Hola <i>mundo</i>.' }, en_es)).toEqual([
      {
        check: 'extra_tag',
        category: 'markup',
        severity: 'major',
        message: 'The tag <i> is not in the source.',
        start: 5,
        end: 8,
      },
      {
        check: 'extra_tag',
        category: 'markup',
        severity: 'major',
        message: 'The tag </i> is not in the source.',
        start: 13,
        end: 17,
      },
    ]);
    const reordered = evaluateSegment(
      { source: '<g id="1">A</g> and <x id="2"/> here.', translation: '<x id="2"/> y <g id="1">A</g> aquí.' },
      en_es,
    );
    expect(reordered).toEqual([
      {
        check: 'reordered_tags',
        category: 'markup',
        severity: 'minor',
        message: 'The tags are in another order than in the source (from <x id="2"/>).',
        start: 0,
        end: 11,
      },
    ]);
  });

  it('reports missing and extra placeholders of every common syntax as critical', () => {
    const issues = evaluateSegment(
      {
        source: 'Hi {{name}}, %s and %1$d and {0} and ${user}.',
        translation: 'Hola {{ name }}, %s y {1} y ${usuario}.',
      },
      en_es,
    );
    expect(issues.map((issue) => [issue.check, issue.severity, issue.message])).toEqual([
      ['missing_placeholder', 'critical', 'The placeholder %1$d of the source is missing.'],
      ['missing_placeholder', 'critical', 'The placeholder {0} of the source is missing.'],
      ['missing_placeholder', 'critical', 'The placeholder ${user} of the source is missing.'],
      ['extra_placeholder', 'critical', 'The placeholder {1} is not in the source.'],
      ['extra_placeholder', 'critical', 'The placeholder ${usuario} is not in the source.'],
    ]);
  });

  it('a percent sign written with a space before a word ("15 % superiores", "50 % de") is not a placeholder', () => {
    const spaced = (source: string, translation: string) =>
      evaluateSegment({ source, translation }, en_es).map((issue) => issue.check);
    expect(spaced('Revenue came in 15% above forecast.', 'Los ingresos fueron un 15 % superiores.')).toEqual(
      [],
    );
    expect(spaced('Half of the files: 50% of them.', 'La mitad de los archivos: el 50 % de ellos.')).toEqual(
      [],
    );
    // French elision after a percent sign: `% d'` is text.
    expect(spaced('{{successPercent}}% of the files', "{{successPercent}}% d'archivos")).toEqual([]);
    expect(spaced('Done: {{n}}%', 'Hecho: {{n}}% d’entre eux')).toEqual([]);
    // printf's space flag is still a placeholder where no letter follows it.
    expect(spaced('Value: % d.', 'Valor: .')).toEqual(['missing_placeholder']);
  });

  it('compares numbers by value whatever the notation', () => {
    expect(
      evaluateSegment(
        { source: 'Pay 1,234.50 EUR now.', translation: 'Zahlen Sie jetzt 1.234,50 EUR.' },
        { sourceLang: 'en', targetLang: 'de' },
      ),
    ).toEqual([]);
    expect(numericValue('1 234,5')).toBe('1234.5');
    expect(numericValue('3.14')).toBe('3.14');
    expect(numericValue('١٢')).toBe('12');
    const missing = evaluateSegment(
      { source: 'Between 10 and 20 days.', translation: 'Entre 10 días.' },
      en_es,
    );
    expect(missing.map((issue) => [issue.message, issue.start, issue.end])).toEqual([
      ['The number 20 of the source is missing.', 0, 14],
    ]);
  });

  it('reports a glossary term not used', () => {
    const options = { ...en_es, glossary: [{ source: 'file', target: 'fichero' }] };
    const issues = evaluateSegment({ source: 'Open the file.', translation: 'Abra el archivo.' }, options);
    expect(issues.map((issue) => [issue.check, issue.message])).toEqual([
      ['glossary_term', 'The glossary term "file" should be translated as "fichero".'],
    ]);
    expect(evaluateSegment({ source: 'Open the file.', translation: 'Abra el fichero.' }, options)).toEqual(
      [],
    );
    expect(evaluateSegment({ source: 'Open the profile.', translation: 'Abra el perfil.' }, options)).toEqual(
      [],
    );
  });

  it('reports a doubled word at its second occurrence, but not one the source doubles or a grammatical pair', () => {
    expect(evaluateSegment({ source: 'Open the file.', translation: 'Abra el el archivo.' }, en_es)).toEqual([
      {
        check: 'doubled_word',
        category: 'grammar',
        severity: 'minor',
        message: 'The word "el" is written twice.',
        start: 8,
        end: 10,
      },
    ]);
    expect(
      evaluateSegment({ source: 'It is very very big.', translation: 'Es muy muy grande.' }, en_es),
    ).toEqual([]);
    expect(
      evaluateSegment({ source: 'We met.', translation: 'Nous nous sommes vus.' }, { targetLang: 'fr' }),
    ).toEqual([]);
  });

  it('reports leading and trailing whitespace that differ from the source', () => {
    expect(evaluateSegment({ source: ' Save. ', translation: 'Guardar.' }, en_es)).toEqual([
      {
        check: 'leading_whitespace',
        category: 'whitespace',
        severity: 'minor',
        message: 'Leading whitespace differs from the source (" " expected, none found).',
        start: 0,
        end: 0,
      },
      {
        check: 'trailing_whitespace',
        category: 'whitespace',
        severity: 'minor',
        message: 'Trailing whitespace differs from the source (" " expected, none found).',
        start: 8,
        end: 8,
      },
    ]);
  });

  it('reports final punctuation of another kind, with language-specific marks counted as equal', () => {
    expect(evaluateSegment({ source: 'Are you sure?', translation: '¿Está seguro.' }, en_es)).toEqual([
      {
        check: 'punctuation',
        category: 'punctuation',
        severity: 'minor',
        message: 'The source ends with question, the translation with period.',
        start: 12,
        end: 13,
      },
    ]);
    expect(
      evaluateSegment({ source: 'Are you sure?', translation: 'Êtes-vous sûr ?' }, { targetLang: 'fr' }),
    ).toEqual([]);
    expect(
      evaluateSegment({ source: 'Are you sure?', translation: '本当ですか？' }, { targetLang: 'ja' }),
    ).toEqual([]);
    expect(
      evaluateSegment({ source: 'Are you sure?', translation: 'Είστε σίγουροι;' }, { targetLang: 'el' }),
    ).toEqual([]);
    expect(evaluateSegment({ source: 'Save.', translation: 'Guardar' }, en_es)).toEqual([
      {
        check: 'punctuation',
        category: 'punctuation',
        severity: 'minor',
        message: 'The source ends with period, the translation with none.',
        start: 6,
        end: 7,
      },
    ]);
  });

  it('reports a translation much longer or shorter than the source, not for short sources', () => {
    const long = evaluateSegment(
      {
        source: 'Save the document now.',
        translation: 'Guarde el documento ahora mismo, antes de que se pierda todo el trabajo hecho hoy.',
      },
      en_es,
    );
    expect(long.map((issue) => issue.message)).toEqual([
      'The translation is much longer than the source (length ratio 3.73, expected 0.35–2.5).',
    ]);
    expect(evaluateSegment({ source: 'OK', translation: 'Aceptar y continuar' }, en_es)).toEqual([]);
    expect(
      evaluateSegment(
        { source: 'Save the document now, please.', translation: '今すぐ文書を保存してください。' },
        { sourceLang: 'en', targetLang: 'ja' },
      ),
    ).toEqual([]);
  });

  it('reports words the injected spelling check rejects, at the word, in code points', () => {
    const known = new Set(['el', 'archivo', 'abra', 'ahora']);
    const spelling = (word: string) => known.has(word.toLowerCase());
    const issues = evaluateSegment(
      { source: '😀 Open the file now.', translation: '😀 Abra el arhcivo ahora.' },
      { ...en_es, spelling },
    );
    expect(issues).toEqual([
      {
        check: 'spelling',
        category: 'spelling',
        severity: 'minor',
        message: '"arhcivo" may be misspelled.',
        start: 10,
        end: 17,
      },
    ]);
    // Words from the source (names) and capitals are not checked.
    expect(
      evaluateSegment(
        { source: 'Ask Zorblax at NASA.', translation: 'Pregunte a Zorblax en NASA.' },
        { ...en_es, spelling: (w) => ['pregunte', 'a', 'en'].includes(w.toLowerCase()) },
      ),
    ).toEqual([]);
  });

  it('leaves out disabled checks', () => {
    const issues = evaluateSegment(
      { source: 'Save.', translation: 'Guardar' },
      { ...en_es, disable: ['punctuation'] },
    );
    expect(issues).toEqual([]);
  });

  it('throws TypeError and RangeError on misuse, naming what was expected', () => {
    expect(() => evaluateSegment({ source: 'a' } as never)).toThrow(
      new TypeError('Expected segment.translation to be a string, got undefined.'),
    );
    expect(() => evaluateSegment({ source: 'a', translation: 'b' }, { disable: ['nope' as never] })).toThrow(
      RangeError,
    );
    expect(() =>
      evaluateSegment({ source: 'a', translation: 'b' }, { lengthRatio: { min: 2, max: 1 } }),
    ).toThrow(RangeError);
    expect(() => evaluateSegments('x' as never)).toThrow(TypeError);
  });

  it('evaluates several segments in order', () => {
    const results = evaluateSegments(
      [
        { source: 'Good day.', translation: 'Buenos días.' },
        { source: 'One.', translation: '' },
      ],
      en_es,
    );
    expect(results.map((issues) => issues.map((issue) => issue.check))).toEqual([[], ['empty_target']]);
  });
});
