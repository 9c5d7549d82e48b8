import { describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  createPseudoTranslator,
  createTranslationCache,
  createTranslationRun,
  type RunSegment,
  type Translator,
} from '../src/index.js';

const segments: RunSegment[] = [
  { key: 'brand', source: 'Welcome to TailAdmin &amp; friends' },
  { key: 'shortcut', source: 'Press K to search' },
  { key: 'word', source: 'Kiosk mode' },
  { key: 'alone', source: 'TailAdmin' },
  { key: 'coded', source: '<g id="1">TailAdmin</g> dashboard' },
];

/** Counts the texts a translator is sent, and what they were. */
function counting(translator: Translator) {
  const sent: string[] = [];
  return {
    sent,
    translator: {
      translateText: (texts: string[], options: Parameters<Translator['translateText']>[1]) => {
        sent.push(...texts);
        return translator.translateText(texts, options);
      },
    } satisfies Translator,
  };
}

describe('doNotTranslate', () => {
  it('keeps whole-word terms as they are in a pseudo-locale; other words are pseudo-localized', async () => {
    const { sent, translator } = counting(createPseudoTranslator());
    const run = createTranslationRun({
      translator,
      targetLangs: ['en-XA'],
      doNotTranslate: ['TailAdmin', 'K'],
    });
    const { targets, report } = await run.translate({ segments });
    const out = targets.get('en-XA')!;
    expect(report.failures).toEqual([]);
    expect(out.get('brand')).toMatch(/TailAdmin &amp; /);
    expect(out.get('brand')).not.toContain('Welcome');
    expect(out.get('shortcut')).toMatch(/ K /);
    expect(out.get('word')).not.toContain('Kiosk');
    expect(out.get('alone')).toBe('TailAdmin'); // nothing else to translate: not sent
    expect(out.get('coded')).toMatch(/<g id="1">TailAdmin<\/g> /);
    expect(sent).toHaveLength(4);
    expect(sent.join('\n')).not.toContain('TailAdmin');
  });

  it('an answer that loses a kept term is retried, then reported as a failure with the term named', async () => {
    const dropping: Translator = {
      translateText: async (texts) =>
        texts.map((t) => ({
          detected_source_language: 'EN',
          text: t.replace(/<x id="glossa-keep-\d+"\/>/g, ''),
        })),
    };
    const run = createTranslationRun({
      translator: dropping,
      targetLangs: ['es'],
      doNotTranslate: ['TailAdmin'],
    });
    const { targets, report } = await run.translate({ segments: [segments[0]!] });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]!.reason).toMatch(/the kept term "TailAdmin" was lost/);
    expect(targets.get('es')!.get('brand')).toBe(segments[0]!.source);
  });

  it('adding a term re-translates only the segments it occurs in (the cache is keyed by what is sent)', async () => {
    const cache = createTranslationCache([createMemoryStore()]);
    const first = counting(createPseudoTranslator());
    await createTranslationRun({ translator: first.translator, targetLangs: ['en-XA'], cache }).translate({
      segments,
    });
    expect(first.sent).toHaveLength(5);
    const second = counting(createPseudoTranslator());
    await createTranslationRun({
      translator: second.translator,
      targetLangs: ['en-XA'],
      cache,
      doNotTranslate: ['K'],
    }).translate({ segments });
    expect(second.sent).toEqual(['Press <x id="glossa-keep-1"/> to search']);
  });
});
