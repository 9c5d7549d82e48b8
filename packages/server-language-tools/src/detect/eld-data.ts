/**
 * eld's n-gram database loaded through JSON.parse instead of through its module. eld ships each database as one
 * JavaScript object literal (large: 4.4 MB, some 250,000 keys); evaluating it costs V8's parser far more than the
 * data itself, and glibc keeps that memory afterwards: importing `eld/large` adds 373 MB of RSS (136 MB of heap)
 * and takes about 4 s, while the same data read as JSON adds 118 MB (79 MB of heap) in under 2 s (bench:
 * bench/detect-memory.ts). The data, the detector and so the answers are eld's own: only the way the literal is
 * read differs, and test/eld-data.test.ts checks that the parsed database equals the module's, key for key.
 */
import { readFile } from 'node:fs/promises';
import type { eld } from 'eld';

/** One eld detector (the type of the package's `eld` export). */
export type Eld = typeof eld;

export const ELD_MODELS = ['large', 'medium', 'small'] as const;
export type EldModel = (typeof ELD_MODELS)[number];

const PREFIX = 'export const ngramsData = ';

/**
 * Turns eld's n-gram module source into JSON text: its single-quoted strings become JSON strings (the only escape
 * eld writes is `\'`; any other escape is refused rather than guessed) and its bare keys (`type`, `5656`, `L_QL`)
 * are quoted. Values are numbers, strings, `false` or objects, all of which JSON reads as they are.
 */
export function eldModuleToJson(source: string): string {
  const start = source.indexOf(PREFIX);
  const end = source.lastIndexOf('}');
  if (start < 0 || end < start)
    throw new Error('Not an eld n-gram module: no `export const ngramsData = {...}`.');
  const literal = source.slice(start + PREFIX.length, end + 1);
  // A quoted string, or a bare key (after `{` or `,`, up to its `:`). Strings are consumed whole, so nothing
  // inside one is ever read as a key.
  return literal.replace(/'((?:[^'\\]|\\.)*)'|([{,])([^'{},:\s][^{},:']*)(?=:)/g, (_, text, before, key) => {
    if (text !== undefined) {
      if (/\\[^']/.test(text)) throw new Error(`Unexpected escape in eld's n-gram data: '${text}'.`);
      return JSON.stringify(text.replaceAll("\\'", "'"));
    }
    return `${before}${JSON.stringify(key)}`;
  });
}

/** Reads the n-gram database of one eld model (from the installed package) as plain data. */
export async function readEldNgrams(model: EldModel): Promise<unknown> {
  if (!ELD_MODELS.includes(model))
    throw new RangeError(`Expected an eld model of ${ELD_MODELS.join(', ')}, got ${String(model)}.`);
  const entry = import.meta.resolve(`eld/${model}`);
  const source = await readFile(new URL(`../ngrams/${model}.js`, entry), 'utf8');
  return JSON.parse(eldModuleToJson(source));
}

/** A new eld detector holding one model's database, read as JSON (see above). */
export async function createEld(model: EldModel): Promise<Eld> {
  const data = await readEldNgrams(model);
  const entry = import.meta.resolve(`eld/${model}`);
  const internals = (await import(new URL('../languageDetector.js', entry).href)) as {
    createEld(): { instance: Eld; loadData(data: unknown): string | undefined };
  };
  const { instance, loadData } = internals.createEld();
  if (!loadData(data)) throw new Error(`eld did not load its ${model} n-gram database.`);
  return instance;
}
