/**
 * The English spellers built in slices (so the event loop stays free while they load) are the spellers
 * nspell builds from the whole dictionary at once: same words with the same rule codes, same compound rules.
 */
import nspell from 'nspell';
import { expect, it } from 'vitest';
import { buildSpeller } from '../src/write/english-variants.js';

it.each(['dictionary-en', 'dictionary-en-gb'])(
  '%s built in slices equals nspell’s one-pass build',
  async (name) => {
    const { default: dictionary } = (await import(name)) as { default: { aff: Uint8Array; dic: Uint8Array } };
    const whole = nspell(Buffer.from(dictionary.aff), Buffer.from(dictionary.dic)) as unknown as Record<
      string,
      unknown
    >;
    const sliced = (await buildSpeller(dictionary)) as unknown as Record<string, unknown>;
    expect(Object.keys(sliced.data as object).length).toBe(Object.keys(whole.data as object).length);
    expect({ ...(sliced.data as object) }).toEqual({ ...(whole.data as object) });
    expect(sliced.compoundRuleCodes).toEqual(whole.compoundRuleCodes);
    expect(String(sliced.compoundRules)).toBe(String(whole.compoundRules));
    const speller = sliced as unknown as ReturnType<typeof nspell>;
    expect(['21st', 'colour', 'color', '12th', '21th'].map((word) => speller.correct(word))).toEqual(
      ['21st', 'colour', 'color', '12th', '21th'].map((word) =>
        (whole as unknown as ReturnType<typeof nspell>).correct(word),
      ),
    );
  },
  60_000,
);
