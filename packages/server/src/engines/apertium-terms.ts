/**
 * Glossary terms as words of the sentence, inside Apertium's own pipeline.
 *
 * A pair's pipeline is run in two halves, split right after the bilingual dictionary (`lt-proc -b`): the
 * first half analyses, disambiguates and looks each word up (`^file<n><pl>/lima<n><f><pl>$`), the second
 * transfers (agreement, word order), generates and post-generates. Between the halves a glossary term's
 * dictionary translation is replaced by the glossary's target, analysed by the target language's own
 * analyser (`archivo<n><m>`), keeping the word's inflection (`<pl>`): the transfer rules then make the
 * determiners, adjectives and predicates agree with the glossary's word (`Este archivo estuvo eliminado`,
 * `los archivos`, `le nouveau fichier`) and the generator inflects it (`files` → `archivos`). This is what
 * the pair does with its own dictionary words, so it works for every installed target (es, pt, ca, fr, it)
 * and through a pivot (the term's words carry the word-bound blank `t:gl:N` through the first pair and
 * are replaced in the last one). Inline markup travels as before (word-bound blanks), so a term inside
 * `<b>…</b>` agrees too.
 *
 * Terms are found twice: as written (the glossary matcher, on the text: `t:gl:N` on their words), and by
 * lemma in the analysed stream of the first pair (`files`, `Files` for the term `file`; one-word terms
 * whose part of speech is the target's). A term the pipeline cannot inflect (its target unknown to the
 * analyser, or of another part of speech than the engine's reading) is written as the glossary has it, in
 * place of the engine's words, and the sentence keeps the engine's agreement.
 */
import { readFileSync } from 'node:fs';
import { TermMatcher } from '../glossaries/matcher.js';
import type { TermMark, TermOutput } from './apertium-format.js';
import type { ApertiumMode } from './apertium-pairs.js';
import { ApertiumProcess } from './apertium-process.js';
import type { EngineTerms } from './engine.js';

interface Reading {
  readonly lemma: string;
  readonly tags: readonly string[];
}

interface TargetWord {
  readonly start: number;
  readonly end: number;
  readonly readings: readonly Reading[];
}

interface AnalysedTarget {
  readonly target: string;
  readonly words: readonly TargetWord[];
}

/** The glossary of one request, analysed for one route. */
export interface TermIndex {
  readonly matcher: TermMatcher;
  readonly targets: ReadonlyMap<string, AnalysedTarget>;
  /** One-word sources by lemma (lower-cased): their target and the parts of speech the source word can be. */
  readonly byLemma: ReadonlyMap<string, { readonly target: string; readonly pos: ReadonlySet<string> }>;
  /** Sources of several words (longest first): the lemmas each word may have, and the target. */
  readonly phrases: readonly { readonly words: readonly ReadonlySet<string>[]; readonly target: string }[];
}

/** The two halves of a mode's pipeline and the target language's analyser and generator. */
export interface SplitMode {
  readonly analyse: string;
  readonly transfer: string;
  /** The first command of the pipeline: the source language's analyser. */
  readonly sourceAnalyser: string;
  readonly targetAnalyser: string;
  readonly generator: string;
}

/** Spanish (the pivot) nouns of each gender, known to every pair from Spanish, that stand in for a term. */
const PIVOT_NOUNS: Readonly<Record<string, string>> = { '<m>': 'libro', '<f>': 'casa' };
/** Parts of speech whose form follows the sentence. */
const INFLECTED = new Set(['<n>', '<adj>']);
const GENDERS = new Set(['<m>', '<f>', '<mf>', '<nt>', '<GD>']);
const NUMBERS = new Set(['<sg>', '<pl>', '<sp>', '<ND>']);
/** Source languages whose compounds end with their head (`file server`: the number is on `server`). */
const HEAD_FINAL = new Set(['en']);
const SPECIAL = /[\\[\]^$/@<>{}]/g;
const escapeStream = (text: string) => text.replace(SPECIAL, '\\$&');
const unescapeStream = (text: string) => text.replace(/\\([\s\S])/g, '$1');

/** The target language's analyser of a mode (`eng-spa` → `spa-eng.automorf.bin` in the same package). */
export function targetAnalyserOf(mode: ApertiumMode): string | undefined {
  const dir = /'(\/[^']*\/apertium-[a-z]{2,3}-[a-z]{2,3})\//.exec(readFileSync(mode.file, 'utf8'))?.[1];
  const [from, to] = mode.name.replace(/_.*$/, '').split('-');
  return dir && from && to ? `${dir}/${to}-${from}.automorf.bin` : undefined;
}

/** Splits a mode's null-flush pipeline (`apertium-wblank-mode -z`) after its bilingual dictionary. */
export function splitPipeline(script: string, targetAnalyser: string): SplitMode | undefined {
  const commands = script.split(' | ');
  const bidix = commands.findIndex((command) => /^lt-proc -z -b '[^']+\.autobil\.bin'$/.test(command));
  const generator = /\$1 '([^']+\.autogen\.bin)'/.exec(script)?.[1];
  if (bidix <= 0 || !generator) return undefined;
  return {
    analyse: commands.slice(0, bidix + 1).join(' | '),
    transfer: commands.slice(bidix + 1).join(' | '),
    sourceAnalyser: commands[0]!,
    targetAnalyser: `lt-proc -z '${targetAnalyser}'`,
    generator: `lt-proc -z -g '${generator}'`,
  };
}

/** Splits on `separator` where it is not escaped with a backslash. */
function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\\' && index + 1 < text.length) {
      current += char + text[++index];
    } else if (char === separator) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function parseReading(reading: string): Reading | undefined {
  const at = reading.search(/(?<!\\)</);
  if (at <= 0 || reading.startsWith('*') || reading.includes('+')) return undefined;
  return { lemma: unescapeStream(reading.slice(0, at)), tags: reading.slice(at).match(/<[^>]+>/g) ?? [] };
}

/** The readings of every lexical unit in an analyser's output (`^files/file<n><pl>/file<vblex>…$`). */
function analyses(output: string): Reading[][] {
  return [...output.matchAll(/\^((?:\\[\s\S]|[^$\\])*)\$/g)].map((unit) =>
    splitUnescaped(unit[1]!, '/')
      .slice(1)
      .map(parseReading)
      .filter((reading): reading is Reading => reading !== undefined),
  );
}

/** Runs one word through an analyser: its readings, or none when the analyser splits it in several units. */
async function analyseWord(tool: ApertiumProcess, word: string): Promise<Reading[]> {
  const units = analyses(await tool.translate(escapeStream(word)));
  return units.length === 1 ? units[0]! : [];
}

/** Analyses a request's glossary for a route: its source words by lemma, its targets word by word. */
export async function buildTermIndex(
  terms: EngineTerms,
  source: ApertiumProcess,
  target: ApertiumProcess,
): Promise<TermIndex> {
  const targets = new Map<string, AnalysedTarget>();
  const byLemma = new Map<string, { target: string; pos: Set<string> }>();
  const words = new Map<string, Promise<Reading[]>>();
  const analysed = (tool: ApertiumProcess, word: string) => {
    const key = `${tool.mode}\u0000${word}`;
    let readings = words.get(key);
    if (!readings) {
      readings = analyseWord(tool, word);
      words.set(key, readings);
    }
    return readings;
  };
  await Promise.all(
    terms.entries.map(async ({ target: text }) => {
      if (targets.has(text)) return;
      const spans = [...text.matchAll(/[^\s]+/g)].map((match) => ({
        start: match.index,
        end: match.index + match[0].length,
      }));
      targets.set(text, { target: text, words: [] });
      const analysedWords = await Promise.all(
        spans.map(async (span) => ({
          ...span,
          readings: await analysed(target, text.slice(span.start, span.end)),
        })),
      );
      targets.set(text, { target: text, words: analysedWords });
    }),
  );
  const sourceReadings = await Promise.all(
    terms.entries.map(({ source: text }) => (/^[\p{L}\p{N}'-]+$/u.test(text) ? analysed(source, text) : [])),
  );
  terms.entries.forEach((entry, index) => {
    for (const reading of sourceReadings[index]!) {
      const lemma = reading.lemma.toLowerCase();
      const known = byLemma.get(lemma) ?? { target: entry.target, pos: new Set<string>() };
      if (known.target !== entry.target) continue;
      known.pos.add(reading.tags[0]!);
      byLemma.set(lemma, known);
    }
  });
  const phrases: { words: Set<string>[]; target: string }[] = [];
  const seenPhrases = new Set<string>();
  const phraseReadings = await Promise.all(
    terms.entries.map(async (entry) => {
      const words = entry.source.trim().split(/\s+/);
      if (words.length < 2 || words.length > 4 || !words.every((word) => /^[\p{L}\p{N}'-]+$/u.test(word)))
        return undefined;
      return { words, readings: await Promise.all(words.map((word) => analysed(source, word))) };
    }),
  );
  phraseReadings.forEach((phrase, order) => {
    const key = phrase?.words.join(' ').toLowerCase();
    if (!phrase || key === undefined || seenPhrases.has(key)) return;
    seenPhrases.add(key);
    const lemmas = phrase.words.map(
      (word, at) =>
        new Set([word.toLowerCase(), ...phrase.readings[at]!.map((reading) => reading.lemma.toLowerCase())]),
    );
    phrases.push({ words: lemmas, target: terms.entries[order]!.target });
  });
  // Longest first; among equals, the earlier entry (a stable sort keeps the glossaries' order).
  phrases.sort((a, b) => b.words.length - a.words.length);
  return { matcher: new TermMatcher(terms.entries), targets, byLemma, phrases };
}

/** The glossary terms written in a run of plain text, each with a new mark recorded in `occurrences`. */
export function markWritten(
  index: TermIndex,
  plain: string,
  occurrences: Map<number, string>,
): readonly TermMark[] {
  return index.matcher.find(plain).map((match) => {
    const mark = occurrences.size + 1;
    occurrences.set(mark, match.target);
    return { start: match.start, end: match.end, mark };
  });
}

type Token = { kind: 'lu'; body: string } | { kind: 'wblank'; inner: string } | { kind: 'text'; raw: string };

const STREAM_TOKEN =
  /\[\[((?:\\[\s\S]|[^\]\\])*)\]\]|(\[(?:\\[\s\S]|[^\]\\])*\])|\^((?:\\[\s\S]|[^$\\])*)\$|(\\[\s\S]|[^[^\\]+|[\s\S])/g;

function tokenize(stream: string): Token[] {
  const tokens: Token[] = [];
  for (const [, wblank, superblank, lu, text] of stream.matchAll(STREAM_TOKEN)) {
    if (wblank !== undefined) tokens.push({ kind: 'wblank', inner: wblank });
    else if (lu !== undefined) tokens.push({ kind: 'lu', body: lu });
    else {
      const raw = superblank ?? text ?? '';
      const last = tokens.at(-1);
      if (last?.kind === 'text') last.raw += raw;
      else tokens.push({ kind: 'text', raw });
    }
  }
  return tokens;
}

const serialize = (tokens: readonly Token[]) =>
  tokens
    .map((token) =>
      token.kind === 'lu' ? `^${token.body}$` : token.kind === 'wblank' ? `[[${token.inner}]]` : token.raw,
    )
    .join('');

const markOf = (token: Token | undefined) =>
  token?.kind === 'wblank' ? /t:gl:(\d+)/.exec(token.inner)?.[1] : undefined;

/** `^file<n><pl>/lima<n><f><pl>/archivo<n><m><pl>$` → the source reading and the dictionary's first target. */
function luParts(body: string): { source: Reading | undefined; target: Reading | undefined; raw: string[] } {
  const raw = splitUnescaped(body, '/');
  return { source: parseReading(raw[0]!), target: parseReading(raw[1] ?? ''), raw };
}

/**
 * In the first pair's analysed stream: marks the words that are a term in another form than written
 * (`files` for `file`, `file servers` for `file server`), where the engine read a word of it as the part
 * of speech of the target's head.
 */
export function markByLemma(stream: string, index: TermIndex, occurrences: Map<number, string>): string {
  if (index.byLemma.size === 0 && index.phrases.length === 0) return stream;
  const tokens = tokenize(stream);
  const units = tokens.flatMap((token, at) => (token.kind === 'lu' ? [at] : []));
  const partsAt = (at: number) => luParts((tokens[at] as { body: string }).body);
  const marked = new Map<number, number>();
  const free = (at: number) => markOf(tokens[at - 1]) === undefined && !marked.has(at);
  /** Only blanks between two units: spaces, and word-bound blanks. */
  const adjacent = (from: number, to: number) =>
    tokens
      .slice(from + 1, to)
      .every((token) => token.kind === 'wblank' || (token.kind === 'text' && /^\s+$/.test(token.raw)));
  const headFits = (positions: readonly number[], target: string) => {
    const analysed = index.targets.get(target);
    return (
      analysed !== undefined &&
      positions.some((at) => {
        const pos = partsAt(at).target?.tags[0];
        return pos !== undefined && headOf(analysed, pos) !== undefined;
      })
    );
  };
  const mark = (positions: readonly number[], target: string) => {
    const id = occurrences.size + 1;
    occurrences.set(id, target);
    for (const at of positions) marked.set(at, id);
  };
  for (let k = 0; k < units.length; k++) {
    const at = units[k]!;
    if (!free(at)) continue;
    const phrase = index.phrases.find(({ words, target }) => {
      const positions = units.slice(k, k + words.length);
      if (positions.length < words.length) return false;
      const fits = positions.every(
        (position, j) =>
          free(position) &&
          words[j]!.has(partsAt(position).source?.lemma.toLowerCase() ?? '') &&
          (j === 0 || adjacent(positions[j - 1]!, position)),
      );
      return fits && headFits(positions, target);
    });
    if (phrase) {
      mark(units.slice(k, k + phrase.words.length), phrase.target);
      k += phrase.words.length - 1;
      continue;
    }
    const { source, target } = partsAt(at);
    const entry = source && index.byLemma.get(source.lemma.toLowerCase());
    if (!entry || !target || !entry.pos.has(source.tags[0]!)) continue;
    const analysed = index.targets.get(entry.target);
    if (!analysed || !headOf(analysed, target.tags[0]!)) continue;
    mark([at], entry.target);
  }
  if (marked.size === 0) return stream;
  const out: Token[] = [];
  tokens.forEach((token, at) => {
    const id = marked.get(at);
    if (id !== undefined) {
      const previous = out.at(-1);
      if (previous?.kind === 'wblank') previous.inner += `; t:gl:${id}`;
      else out.push({ kind: 'wblank', inner: `t:gl:${id}` });
    }
    out.push(token);
  });
  return serialize(out);
}

/**
 * The target's word that can stand for the engine's word of part of speech `pos`, with its reading: a
 * reading of the word as the glossary writes it (its lemma, or a noun in any form), so that `archivo` is
 * the noun and never a form of the verb `archivar`.
 */
function headOf(target: AnalysedTarget, pos: string): { word: TargetWord; reading: Reading } | undefined {
  for (const word of target.words) {
    const written = target.target.slice(word.start, word.end).toLowerCase();
    const reading = word.readings.find(
      (candidate) =>
        candidate.tags[0] === pos && (pos === '<n>' || candidate.lemma.toLowerCase() === written),
    );
    if (reading) return { word, reading };
  }
  return undefined;
}

/**
 * In the last pair's analysed stream: each marked term's dictionary translation becomes its glossary
 * target with the engine's inflection (`lima<n><f><pl>` → `archivo<n><m><pl>`); the other words of a
 * term of several words are removed. Returns what each mark becomes in the output.
 */
export async function rewriteTerms(
  stream: string,
  index: TermIndex,
  occurrences: ReadonlyMap<number, string>,
  sourceLanguage: string,
  generate: (requests: string[]) => Promise<string[]>,
  final = true,
): Promise<{ stream: string; outputs: Map<number, TermOutput> }> {
  const outputs = new Map<number, TermOutput>();
  const tokens = tokenize(stream);
  const byMark = new Map<number, number[]>();
  tokens.forEach((token, at) => {
    const mark = token.kind === 'lu' ? markOf(tokens[at - 1]) : undefined;
    if (mark === undefined) return;
    const list = byMark.get(Number(mark)) ?? [];
    list.push(at);
    byMark.set(Number(mark), list);
  });
  if (byMark.size === 0) return { stream, outputs };
  const removed = new Set<number>();
  const adjectives: {
    mark: number;
    head: string;
    before: string;
    requests: string[];
    words: string[];
    rest: string;
  }[] = [];
  for (const [mark, positions] of byMark) {
    const target = occurrences.get(mark);
    const analysed = target === undefined ? undefined : index.targets.get(target);
    if (target === undefined || !analysed) continue;
    const candidates = positions
      .map((at) => ({ at, parts: luParts((tokens[at] as { body: string }).body) }))
      .filter(({ parts }) => parts.source && parts.target && headOf(analysed, parts.target.tags[0]!));
    // The engine's word that stands for the target's first inflectable word (`disk` for `unidad rígida`,
    // `Save` for `Guardar como`); between words standing for the same one, the source's head.
    const wordIndex = (candidate: (typeof candidates)[number]) =>
      analysed.words.indexOf(headOf(analysed, candidate.parts.target!.tags[0]!)!.word);
    const leftmost = Math.min(...candidates.map(wordIndex));
    const heads = candidates.filter((candidate) => wordIndex(candidate) === leftmost);
    const chosen = HEAD_FINAL.has(sourceLanguage) ? heads.at(-1) : heads[0];
    // The case of the term's first word as written in the source (`File server` at a sentence start).
    const firstSource = splitUnescaped((tokens[positions[0]!] as { body: string }).body, '/')[0]!;
    const lemmaEnd = (side: string) => side.search(/(?<!\\)</);
    const sourceSide = !chosen
      ? ''
      : lemmaEnd(firstSource) <= 0 || firstSource.startsWith('*')
        ? chosen.parts.raw[0]!
        : firstSource.slice(0, lemmaEnd(firstSource)) +
          chosen.parts.raw[0]!.slice(lemmaEnd(chosen.parts.raw[0]!));
    for (const at of positions.slice(1)) {
      removed.add(at);
      removed.add(at - 1);
      if (tokens[at - 2]?.kind === 'text' && /^\s+$/.test((tokens[at - 2] as { raw: string }).raw))
        removed.add(at - 2);
    }
    const keepOthers = () => {
      for (const at of positions.slice(1)) for (const part of [at, at - 1, at - 2]) removed.delete(part);
    };
    if (!chosen) {
      if (final) outputs.set(mark, { kind: 'literal', target });
      else keepOthers();
      continue;
    }
    const engineWord = chosen.parts.target!;
    const head = headOf(analysed, engineWord.tags[0]!)!;
    // A noun brings its own gender; an adjective takes the gender the sentence gives it.
    const gender =
      head.reading.tags[0] === '<n>'
        ? head.reading.tags.find((tag) => GENDERS.has(tag) && tag !== '<GD>')
        : undefined;
    let tags = engineWord.tags.map((tag) => (gender && GENDERS.has(tag) ? gender : tag));
    if (gender && !tags.some((tag) => GENDERS.has(tag))) tags = [tags[0]!, gender, ...tags.slice(1)];
    const first = tokens[positions[0]!] as { body: string };
    if (!final) {
      // Through a pivot: a pivot-language noun of the target's gender stands in for the term, so that the
      // pivot's own agreement (which the last pair copies) already follows the term.
      const standIn = tags[0] === '<n>' && gender ? PIVOT_NOUNS[gender] : undefined;
      first.body = `${sourceSide}/${standIn ?? escapeStream(engineWord.lemma)}${tags.join('')}`;
      if (!standIn) keepOthers();
      continue;
    }
    first.body = `${sourceSide}/${escapeStream(head.reading.lemma)}${tags.join('')}`;
    // Only nouns and adjectives take the sentence's inflection (number, gender); a verb or any other word
    // is written as the glossary has it ("Guardar como", not the engine's reading "Guarda como").
    if (!INFLECTED.has(head.reading.tags[0]!)) {
      outputs.set(mark, { kind: 'literal', target });
      continue;
    }
    const before = target.slice(0, head.word.start);
    // Adjectives right after the head that agree with it in the glossary agree with it in the sentence.
    const number = tags.find((tag) => tag === '<sg>' || tag === '<pl>');
    const headNumber = head.reading.tags.find((tag) => NUMBERS.has(tag));
    const following = analysed.words.slice(analysed.words.indexOf(head.word) + 1);
    const requests: string[] = [];
    const words: string[] = [];
    for (const word of following) {
      const adjective = word.readings.find(
        (reading) =>
          (reading.tags[0] === '<adj>' || reading.tags.includes('<pp>')) &&
          (gender === undefined || reading.tags.includes(gender) || reading.tags.includes('<mf>')) &&
          (headNumber === undefined || reading.tags.includes(headNumber) || reading.tags.includes('<sp>')),
      );
      if (!adjective || !number || number === headNumber) break;
      const inflected = adjective.tags.map((tag) => (NUMBERS.has(tag) ? number : tag)).join('');
      requests.push(`^${escapeStream(adjective.lemma)}${inflected}$`);
      words.push(target.slice(word.start, word.end));
    }
    const restStart = words.length > 0 ? following[words.length - 1]!.end : head.word.end;
    adjectives.push({
      mark,
      head: head.reading.lemma,
      before,
      requests,
      words,
      rest: target.slice(restStart),
    });
  }
  const generated = await generate(adjectives.flatMap((item) => item.requests));
  let cursor = 0;
  for (const item of adjectives) {
    const forms = item.words.map((word, at) => {
      const form = generated[cursor + at];
      return form && /^[\p{L}'-]+$/u.test(form) ? form : word;
    });
    cursor += item.words.length;
    const after = forms.length > 0 ? ` ${forms.join(' ')}${item.rest}` : item.rest;
    outputs.set(item.mark, { kind: 'inflected', head: item.head, before: item.before, after });
  }
  return { stream: serialize(tokens.filter((_, at) => !removed.has(at))), outputs };
}

/** What the pair's generator makes of each `^lemma<tags>$` (one line each). */
export async function generateWords(tool: ApertiumProcess, requests: string[]): Promise<string[]> {
  if (requests.length === 0) return [];
  const output = await tool.translate(requests.join('\n'));
  return output
    .split('\n')
    .slice(0, requests.length)
    .map((line) => line.trim());
}

/** A process running one command (an analyser, a generator, half of a pipeline) in null-flush mode. */
export function commandProcess(name: string, script: string, idleMs: number, timeoutMs: number) {
  return new ApertiumProcess({ command: { name, script }, idleMs, timeoutMs });
}
