/**
 * "Never worse": the checks every output of a remote engine passes before it is used. A failed check names
 * what is wrong in words an LLM can act on (the retry sends them back), and the chain moves the segment to
 * the next engine, or keeps the source, when the retry fails too.
 */
import { baseLanguage } from '@glossa/protocol';

export interface VerifyInput {
  readonly source: string;
  readonly output: string | undefined;
  readonly sourceLang: string;
  readonly targetLang: string;
  /** Glossary entries the engine was asked to apply. */
  readonly terms?: readonly { readonly source: string; readonly target: string }[] | undefined;
  /** The language of a text among two candidates; undefined when it cannot tell. */
  readonly detect?:
    | ((text: string, candidates: ReadonlySet<string>) => Promise<string | undefined>)
    | undefined;
  /** Only the checks that do not judge the language (codes, placeholders, empty): for local rule-based engines. */
  readonly structuralOnly?: boolean;
}

const CODE = /<g id="([^"]*)">|<\/g>|<x id="([^"]*)"\s*\/>/g;
const PLACEHOLDER = /\{\{\s*[\w.$-]+\s*\}\}|\{[\w.$-]+\}|%(?:\d+\$)?[sdifu@]|\$\{[\w.]+\}/g;
const TAG = /<[^>]*>/g;

/** The codes of a text in order, and whether they nest properly. */
function codes(text: string): { list: string[]; nested: boolean } {
  const list: string[] = [];
  const open: string[] = [];
  let nested = true;
  for (const match of text.matchAll(CODE)) {
    if (match[1] !== undefined) {
      list.push(`g${match[1]}`);
      open.push(match[1]);
    } else if (match[2] !== undefined) list.push(`x${match[2]}`);
    else if (open.pop() === undefined) nested = false;
  }
  if (open.length > 0) nested = false;
  return { list, nested };
}

const sorted = (items: Iterable<string>) => [...items].sort().join(' ');

const plain = (text: string) =>
  text
    .replace(TAG, ' ')
    .replace(/&(lt|gt|amp|quot|apos);/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const WORD = /\p{L}{3,}/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_LANGUAGES = new Set(['ja', 'zh', 'ko']);

/** Targets written in their own script: most letters of a translation into them are of that script. */
const SCRIPTS: Record<string, RegExp> = {
  ja: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
  zh: /\p{Script=Han}/u,
  ko: /\p{Script=Hangul}/u,
  ru: /\p{Script=Cyrillic}/u,
  uk: /\p{Script=Cyrillic}/u,
  bg: /\p{Script=Cyrillic}/u,
  sr: /\p{Script=Cyrillic}|\p{Script=Latin}/u,
  be: /\p{Script=Cyrillic}/u,
  ar: /\p{Script=Arabic}/u,
  fa: /\p{Script=Arabic}/u,
  ur: /\p{Script=Arabic}/u,
  he: /\p{Script=Hebrew}/u,
  el: /\p{Script=Greek}/u,
  th: /\p{Script=Thai}/u,
  hi: /\p{Script=Devanagari}/u,
};

/** What is wrong with `output` as a translation of `source`; empty when it passes. */
export async function verifyOutput(input: VerifyInput): Promise<string[]> {
  const { source, output } = input;
  if (output === undefined) return ['the segment is missing from the answer'];
  const problems: string[] = [];
  const sourceText = plain(source);
  const outputText = plain(output);
  if (sourceText !== '' && outputText === '') return ['the translation is empty'];
  const sourceCodes = codes(source);
  const outputCodes = codes(output);
  if (sorted(sourceCodes.list) !== sorted(outputCodes.list) || !outputCodes.nested) {
    problems.push(
      `the inline codes differ: keep exactly ${sourceCodes.list.length === 0 ? 'no codes' : source.match(CODE)?.join(' ')}, each once, properly nested`,
    );
  }
  const sourcePlaceholders = sorted(source.match(PLACEHOLDER) ?? []);
  if (sourcePlaceholders !== sorted(output.match(PLACEHOLDER) ?? [])) {
    problems.push(`the placeholders differ: keep ${sourcePlaceholders || 'no placeholders'} unchanged`);
  }
  if (input.structuralOnly) return problems;

  const from = baseLanguage(input.sourceLang).toLowerCase();
  const to = baseLanguage(input.targetLang).toLowerCase();
  for (const term of input.terms ?? []) {
    if (!containsTerm(sourceText, term.source)) continue;
    if (!containsTerm(outputText, term.target, true)) {
      problems.push(`the glossary says "${term.source}" is "${term.target}"; use it`);
    }
  }
  const words = sourceText.match(WORD)?.length ?? 0;
  // Four words or more: a shorter text left as it is is usually a name ("Visual Studio Code").
  if (from !== to && words >= 4 && normalize(outputText) === normalize(sourceText)) {
    problems.push('the source was returned untranslated');
    return problems;
  }
  // Length ratio, for texts long enough to judge; scripts of different density get wider bounds.
  if (sourceText.length >= 20) {
    const ratio = outputText.length / sourceText.length;
    const cjkIn = CJK.test(sourceText) && CJK_LANGUAGES.has(from);
    const cjkOut = CJK_LANGUAGES.has(to);
    const [low, high] = cjkOut && !cjkIn ? [0.1, 2.5] : cjkIn && !cjkOut ? [0.6, 12] : [0.33, 3];
    if (ratio < low || ratio > high) {
      problems.push(
        `the translation is ${ratio < low ? 'much shorter' : 'much longer'} than the source (${outputText.length} vs ${sourceText.length} characters): translate exactly the segment, nothing more, nothing less`,
      );
    }
  }
  const script = SCRIPTS[to];
  const letters = outputText.match(/\p{L}/gu) ?? [];
  if (
    script &&
    letters.length >= 8 &&
    letters.filter((letter) => script.test(letter)).length < letters.length * 0.3
  ) {
    problems.push(`the translation is not in the target language (${input.targetLang})`);
  } else if (!script && input.detect && (outputText.match(WORD)?.length ?? 0) >= 5 && from !== to) {
    const detected = await input.detect(outputText, new Set([from, to])).catch(() => undefined);
    // Put on the source language, the output must also be mostly the source's own words (a translation
    // full of English product and code names can score as English); a third language is wrong as it is.
    if (
      detected !== undefined &&
      detected !== to &&
      (detected !== from || sharedWords(outputText, sourceText) >= 0.5)
    ) {
      problems.push(`the translation is not in the target language (${input.targetLang})`);
    }
  }
  return problems;
}

/** The share of the output's words (3 letters or more) that the source has too. */
function sharedWords(output: string, source: string): number {
  const words = output.toLowerCase().match(WORD) ?? [];
  if (words.length === 0) return 0;
  const known = new Set(source.toLowerCase().match(WORD) ?? []);
  return words.filter((word) => known.has(word)).length / words.length;
}

const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\s\p{P}]+/gu, ' ')
    .trim();

/** Whether `text` holds `term` as words (case-insensitive); an inflected target may change its ending. */
function containsTerm(text: string, term: string, inflected = false): boolean {
  const haystack = text.toLowerCase();
  const needle = term.toLowerCase().trim();
  if (needle === '') return true;
  if (haystack.includes(needle)) return true;
  if (!inflected) return false;
  // An inflected form: every word of the term present by its stem (all but the last two letters).
  return needle
    .split(/\s+/)
    .every((word) => haystack.includes(word.length >= 5 ? word.slice(0, word.length - 2) : word));
}

/** Wraps each occurrence of a glossary target in the term marks (`EngineTerms.marked`). */
export function markTerms(
  output: string,
  entries: readonly { readonly target: string }[],
  start: string,
  end: string,
): string {
  const targets = [
    ...new Set(entries.map((entry) => entry.target).filter((target) => target.trim() !== '')),
  ].sort((a, b) => b.length - a.length);
  if (targets.length === 0) return output;
  const escaped = targets.map((target) => target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  // Never inside a tag.
  return output
    .split(/(<[^>]*>)/)
    .map((piece, index) =>
      index % 2 === 1 ? piece : piece.replace(pattern, (term) => `${start}${term}${end}`),
    )
    .join('');
}
