/**
 * Codes survive real Apertium on many sentences: the benchmark corpus with `<g>` (nested too) and `<x/>`
 * codes put on different words of each sentence, en→es and through the en→fr pivot. Every translation must
 * hold every code exactly once, properly nested, with no stream syntax or unknown-word mark left over.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createApertiumEngine } from '../src/engines/apertium.js';

const corpus = readFileSync(new URL('../bench/apertium-sentences.txt', import.meta.url), 'utf8')
  .trim()
  .split('\n');

/** Puts codes on sentence `n`: a `<g>` around two words (with a nested `<g>` on every third), an `<x/>`. */
function withCodes(sentence: string, n: number): string {
  const words = sentence.split(' ');
  const at = 1 + (n % Math.max(1, words.length - 3));
  const inner = n % 3 === 0 ? `<g id="2">${words[at + 1]}</g>` : words[at + 1];
  words.splice(at, 2, `<g id="1">${words[at]} ${inner}</g>`);
  words.splice(Math.min(words.length, 1 + (n % 4)), 0, '<x id="9"/>');
  return words.join(' ');
}

/** The problems of a translation: codes missing, repeated or badly nested; stream syntax left over. */
function problems(source: string, output: string): string[] {
  const found: string[] = [];
  const ids = (text: string) => [...text.matchAll(/<(g|x) id="(\d+)"/g)].map((m) => `${m[1]}${m[2]}`).sort();
  if (ids(source).join() !== ids(output).join()) found.push(`codes ${ids(output)} instead of ${ids(source)}`);
  const stack: string[] = [];
  for (const [tag, close, id] of output.matchAll(/<(\/?)g(?: id="(\d+)")?>/g)) {
    if (!close) stack.push(id!);
    else if (stack.pop() === undefined) found.push(`unbalanced ${tag}`);
  }
  if (stack.length > 0) found.push('unclosed <g>');
  if (/\[\[|\]\]|\[[qsx]\d+\]|\\/.test(output)) found.push('stream syntax left');
  if (/(^|\s)[*#@]\w/.test(output)) found.push('unknown-word mark left');
  return found;
}

describe('codes through real Apertium on the corpus', () => {
  const engine = createApertiumEngine();
  afterAll(() => engine.close());
  const texts = corpus.slice(0, 300).map(withCodes);

  it('keeps every code once and nested, en→es (300 sentences)', async () => {
    const out = await engine.translate({
      texts,
      source: 'en',
      target: 'es',
      markup: true,
      formality: 'default',
    });
    const bad = out.flatMap((o, i) => problems(texts[i]!, o).map((p) => `${texts[i]} → ${o}: ${p}`));
    expect(bad).toEqual([]);
  });

  it('keeps every code once and nested through the en→fr pivot (100 sentences)', async () => {
    const some = texts.slice(0, 100);
    const out = await engine.translate({
      texts: some,
      source: 'en',
      target: 'fr',
      markup: true,
      formality: 'default',
    });
    const bad = out.flatMap((o, i) => problems(some[i]!, o).map((p) => `${some[i]} → ${o}: ${p}`));
    expect(bad).toEqual([]);
  });
});
