/**
 * The detailed issues behind `/v1/quality-evaluation`: each issue's kind in the public typology and its spans
 * on both sides, in code points. Something absent from the translation has no target span and points at the
 * source; a changed value points at both.
 */
import { describe, expect, it } from 'vitest';
import { evaluateSegmentDetailed, ISSUE_KIND_OF_CHECK, ISSUE_SUB_TYPES, ISSUE_TYPES } from '../src/index.js';

const detailed = (source: string, translation: string, options = {}) =>
  evaluateSegmentDetailed({ source, translation }, options).map((issue) => ({
    check: issue.check,
    kind: `${issue.kind.type}/${issue.kind.subType}`,
    source: issue.sourceSpans.map((span) => [...source].slice(span.start, span.end).join('')),
    target: issue.targetSpans.map((span) => [...translation].slice(span.start, span.end).join('')),
  }));

describe('evaluateSegmentDetailed', () => {
  it('a changed number: a mistranslation, spans on both sides (code points, after an emoji)', () => {
    // The example of the public description: "5% above" became "5 % unter"; here the number itself changes.
    expect(
      detailed(
        '😀 Our Q3 revenue came in 5% above forecast.',
        '😀 Unser Q3-Umsatz lag 15 % über der Prognose.',
      ),
    ).toEqual([{ check: 'number_mismatch', kind: 'Accuracy/Mistranslation', source: ['5'], target: ['15'] }]);
  });

  it('a missing tag, number, link and term: omissions at the source, no target span', () => {
    const source = 'Send <b>25</b> files to help@example.org for the glossary.';
    const translation = 'Envíe archivos a la dirección para el léxico.';
    expect(detailed(source, translation, { glossary: [{ source: 'glossary', target: 'glosario' }] })).toEqual(
      [
        { check: 'missing_tag', kind: 'Accuracy/Omission', source: ['<b>'], target: [] },
        { check: 'missing_tag', kind: 'Accuracy/Omission', source: ['</b>'], target: [] },
        { check: 'number_mismatch', kind: 'Accuracy/Mistranslation', source: ['25'], target: [] },
        { check: 'link_mismatch', kind: 'Accuracy/Mistranslation', source: ['help@example.org'], target: [] },
        { check: 'glossary_term', kind: 'Style/Inconsistent style', source: ['glossary'], target: [] },
      ],
    );
  });

  it('an empty translation is one omission of the whole source; a long one an addition', () => {
    expect(detailed('Save your work.', '')).toEqual([
      { check: 'empty_target', kind: 'Accuracy/Omission', source: ['Save your work.'], target: [] },
    ]);
    const long = detailed(
      'Save your work often.',
      'Guarde su trabajo a menudo, y también todo lo demás que tenga abierto ahora mismo.',
    );
    expect(long.map((issue) => [issue.check, issue.kind])).toEqual([['length_ratio', 'Accuracy/Addition']]);
  });

  it('a duplicated sentence is an addition at the repetition, with no source span', () => {
    const translation = 'Abra el archivo ahora. Abra el archivo ahora.';
    expect(detailed('Open the file now.', translation)).toEqual([
      {
        check: 'duplicated_sentence',
        kind: 'Accuracy/Addition',
        source: [],
        target: ['Abra el archivo ahora.'],
      },
    ]);
  });

  it('every check maps to a type and sub-type of the public enumeration', () => {
    for (const kind of Object.values(ISSUE_KIND_OF_CHECK)) {
      expect(ISSUE_TYPES).toContain(kind.type);
      expect(ISSUE_SUB_TYPES).toContain(kind.subType);
    }
  });
});
