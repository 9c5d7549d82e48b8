/**
 * Issue 21, item 7: quality evaluation flags a changed URL or e-mail address and a duplicated sentence. The
 * sources are real messages (Debian's dpkg and reportbug catalogues); the translations are what an engine
 * that garbles addresses or repeats itself returns.
 */
import { describe, expect, it } from 'vitest';
import { evaluateSegment } from '../src/index.js';

const checks = (source: string, translation: string) =>
  evaluateSegment({ source, translation }).map((issue) => [
    issue.check,
    issue.message,
    issue.start,
    issue.end,
  ]);

describe('links', () => {
  it('reports a changed URL at the URL, once (not also as a number)', () => {
    const source = 'See https://www.debian.org/Bugs/Reporting for how to report bug 12345.';
    const translation = 'Consulte https://www.debian.org/Insectos/Reporting para informar del error 12345.';
    expect(checks(source, translation)).toEqual([
      [
        'link_mismatch',
        'The URL https://www.debian.org/Insectos/Reporting differs from https://www.debian.org/Bugs/Reporting in the source.',
        9,
        50,
      ],
    ]);
  });

  it('reports a changed e-mail address, and a missing one over the whole translation', () => {
    const source = 'Send your report to submit@bugs.debian.org or to owner@bugs.debian.org.';
    const translation = 'Envíe su informe a enviar@errores.debian.org.';
    const found = checks(source, translation);
    expect(found).toEqual([
      ['link_mismatch', 'The e-mail address owner@bugs.debian.org of the source is missing.', 0, 45],
      [
        'link_mismatch',
        'The e-mail address enviar@errores.debian.org differs from submit@bugs.debian.org in the source.',
        19,
        44,
      ],
    ]);
  });

  it('finds nothing when the addresses are kept, a final full stop being the sentence’s', () => {
    expect(checks('Mail debian-l10n@lists.debian.org.', 'Escriba a debian-l10n@lists.debian.org.')).toEqual(
      [],
    );
  });
});

describe('duplicated sentences', () => {
  it('reports a sentence the translation says twice, at the second one', () => {
    const source = 'The package is broken. Please reinstall it.';
    const translation = 'El paquete está roto. El paquete está roto. Por favor, reinstálelo.';
    expect(checks(source, translation)).toEqual([
      [
        'duplicated_sentence',
        'This sentence is a repetition of an earlier one; the source says it once.',
        22,
        43,
      ],
    ]);
  });

  it('not when the source repeats itself, nor for short interjections', () => {
    expect(checks('Try again. Try again later.', 'Inténtelo. Inténtelo.')).toEqual([]);
    expect(
      checks('It is broken. It is broken.', 'Está roto del todo. Está roto del todo.').filter(
        ([check]) => check === 'duplicated_sentence',
      ),
    ).toEqual([]);
  });
});
