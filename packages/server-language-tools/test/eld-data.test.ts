/**
 * eld's n-gram databases read as JSON (src/detect/eld-data.ts) are the databases eld's own modules hold, key for
 * key, so detection answers exactly as with `import('eld/large')`, at a third of the memory.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createEld, eldModuleToJson, readEldNgrams } from '../src/detect/eld-data.js';

describe("eld's n-gram data read as JSON", () => {
  it.each(['large', 'medium'] as const)(
    'the %s database equals the one its module exports',
    async (model) => {
      const parsed = await readEldNgrams(model);
      const { ngramsData } = (await import(
        new URL(`../ngrams/${model}.js`, import.meta.resolve(`eld/${model}`)).href
      )) as {
        ngramsData: { ngrams: object };
      };
      expect(Object.keys((parsed as typeof ngramsData).ngrams).length).toBe(
        Object.keys(ngramsData.ngrams).length,
      );
      expect(isDeepStrictEqual(parsed, ngramsData)).toBe(true);
    },
  );

  it('quotes bare keys, reads escaped quotes, keeps quotes and colons inside strings, refuses other escapes', () => {
    const source = `/* c */\nexport const ngramsData = {type:'L60',isSubset:false,ngrams:{5656:{44:0},L_QL:{0:148},' a\\'b"{,:c ':{3:1},'t\tb':{2:5}}};\n`;
    expect(JSON.parse(eldModuleToJson(Buffer.from(source)))).toEqual({
      type: 'L60',
      isSubset: false,
      ngrams: { '5656': { '44': 0 }, L_QL: { '0': 148 }, ' a\'b"{,:c ': { '3': 1 }, 't\tb': { '2': 5 } },
    });
    expect(() => eldModuleToJson(Buffer.from(`export const ngramsData = {a:'\\n'};`))).toThrow(
      /Unexpected escape/,
    );
    expect(() => eldModuleToJson(Buffer.from('export const other = 1;'))).toThrow(/Not an eld n-gram module/);
  });

  it('detects with the database it read', async () => {
    const eld = await createEld('small');
    expect(eld.detect('Bonjour tout le monde, comment allez-vous aujourd’hui ?').language).toBe('fr');
  });
});
