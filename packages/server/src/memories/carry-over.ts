/**
 * Whether a fuzzy memory match can be used for a request, and how: the memory's target is used only when
 * every difference between the request and the memory's source can be carried into that target.
 * - Carried as written: one-for-one replacements of a number, a code or a name (a token with a digit or a
 *   capital that appears exactly once, as written, in the memory's target: "born in Yugoslavia" → "born in
 *   Albania"). A difference in punctuation alone is no reason not to use the match; a different final mark
 *   is carried.
 * - Carried through the engine ("a word the engine translates in place"): a replaced word or short phrase
 *   (not a negation, not a number written in words) is carried when the engine's translations of the
 *   memory's source and of the request (with the request's glossaries: a glossary term is one such word)
 *   differ only in words that the memory's target contains exactly once each: those words are replaced by
 *   the engine's. A change the engine spreads over the sentence (an article, an agreeing adjective) shows
 *   up in its translations and is carried too, or refuses the match when the memory's target words it
 *   differently.
 * Anything else (a word added or dropped, such as a negation; a number written in words; a change the
 * memory's target does not show word for word) cannot be carried: the engine translates, and the match is
 * still reported. Negation, numbers and names therefore never come from the memory where the request
 * differs there.
 */
import { tokenize } from './score.js';

const PUNCTUATION = /^[^\p{L}\p{N}\p{M}]$/u;

/**
 * Words whose change is never carried from the memory (a negation, a number written in words), in the
 * source languages of the installed engines; lower case.
 */
const NEVER_IN_PLACE = new Set(
  [
    // Negation.
    "not no never nothing nobody none neither nor without cannot n't nowhere",
    'nunca jamás nadie nada ni sin tampoco ninguno ninguna',
    'ne pas jamais rien personne aucun aucune sans',
    'não nem sem ninguém nenhum nenhuma',
    'non mai niente nulla nessuno nessuna né senza',
    'res ningú cap sense',
    'nicht kein keine keinen nie niemals nichts ohne weder',
    // Numbers written in words.
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen',
    'seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand',
    'million billion dozen half first second third once twice',
    'cero uno una dos tres cuatro cinco seis siete ocho nueve diez once doce veinte cien ciento mil millón',
    'un une deux trois quatre cinq six sept huit neuf dix vingt cent mille',
    'um uma dois duas três quatro cinco seis sete oito nove dez vinte cem mil',
    'uno due tre quattro cinque sei sette otto nove dieci venti cento mille',
    'dues quatre cinc sis set vuit nou deu',
  ]
    .join(' ')
    .split(' '),
);

/** A replaced word or short phrase the engine may carry: not a negation, a number, or a name. */
function inPlaceCandidate(removed: readonly string[], added: readonly string[]): boolean {
  if (removed.length === 0 || added.length === 0 || removed.length > 3 || added.length > 3) return false;
  return [...removed, ...added].every(
    (token) => !NEVER_IN_PLACE.has(token) && !/\p{N}/u.test(token) && !PUNCTUATION.test(token),
  );
}

/** The engine's translations of the memory's source and of the request, for carrying words in place. */
export interface InPlace {
  readonly source: string;
  readonly request: string;
}

/**
 * Whether the match could be used with the engine's help: some difference is a replaced word the engine
 * may translate in place, and every other one is carried as written. Call `carryOver` with the engine's
 * translations then.
 */
export function needsEngine(request: string, memorySource: string, memoryTarget: string): boolean {
  return carry(request, memorySource, memoryTarget, undefined) === 'engine';
}

/** The memory's target adapted to the request, or undefined when a difference cannot be carried over. */
export function carryOver(
  request: string,
  memorySource: string,
  memoryTarget: string,
  inPlace?: InPlace,
): string | undefined {
  const result = carry(request, memorySource, memoryTarget, inPlace);
  return result === 'engine' ? undefined : result;
}

function carry(
  request: string,
  memorySource: string,
  memoryTarget: string,
  inPlace: InPlace | undefined,
): string | undefined | 'engine' {
  const a = tokenize(memorySource);
  const b = tokenize(request);
  const hunks = differences(a, b);
  let target = memoryTarget;
  let deferred = 0;
  for (const { removed, added } of hunks) {
    // Punctuation only: the final mark follows the request ("!" for "."); others are the target language's own.
    if ([...removed, ...added].every((token) => PUNCTUATION.test(token))) {
      const last = memoryTarget.trimEnd().at(-1);
      if (
        removed.length === 1 &&
        added.length === 1 &&
        last !== undefined &&
        last === removed[0] &&
        memorySource.trimEnd().endsWith(last)
      ) {
        const end = target.trimEnd().length;
        target = target.slice(0, end - 1) + added[0] + target.slice(end);
      }
      continue;
    }
    const literal =
      removed.length === 1 && added.length === 1
        ? carryLiteral(target, request, memorySource, removed[0]!, added[0]!)
        : undefined;
    if (literal !== undefined) {
      target = literal;
      continue;
    }
    if (!inPlaceCandidate(removed, added)) return undefined;
    deferred++;
  }
  if (deferred === 0) return target;
  if (!inPlace) return 'engine';
  return carryInPlace(target, inPlace);
}

/** A number, code or name replaced one for one, as written, when the target has it exactly once. */
function carryLiteral(
  target: string,
  request: string,
  memorySource: string,
  removed: string,
  added: string,
): string | undefined {
  const from = originalToken(memorySource, removed);
  const to = originalToken(request, added);
  if (from === undefined || to === undefined) return undefined;
  if (!carriable(from) || !carriable(to)) return undefined;
  const occurrences = wholeTokenMatches(target, from);
  if (occurrences.length !== 1) return undefined;
  const at = occurrences[0]!;
  return target.slice(0, at) + to + target.slice(at + from.length);
}

interface Token {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const TOKEN_SPAN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}]|[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}]/gu;

function spans(text: string): Token[] {
  const normal = text.normalize('NFC');
  return [...normal.matchAll(TOKEN_SPAN)].map((match) => ({
    text: match[0].toLowerCase(),
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/**
 * The memory's target with each difference between the engine's two translations carried: the words the
 * engine changed, found exactly once (as whole words, any case) in the target, become the engine's new
 * words. Differences in numbers, names and punctuation were carried as written before.
 */
function carryInPlace(target: string, inPlace: InPlace): string | undefined {
  const source = inPlace.source.normalize('NFC');
  const request = inPlace.request.normalize('NFC');
  const a = spans(source);
  const b = spans(request);
  const hunks = differenceSpans(a, b);
  let result = target.normalize('NFC');
  let carried = 0;
  for (const { removed, added } of hunks) {
    const tokens = [...removed, ...added];
    if (tokens.every((token) => PUNCTUATION.test(token.text))) continue;
    if (removed.length === 0 || added.length === 0) return undefined;
    const from = source.slice(removed[0]!.start, removed.at(-1)!.end);
    const to = request.slice(added[0]!.start, added.at(-1)!.end);
    // A number or a name carried as written already. Every other difference, a name the engine
    // translates ("London" → "Londres") included, must be found in the target, so the memory's own word
    // never stays where the request differs.
    const lower = result.toLowerCase();
    if (
      wholeTokenMatches(lower, to.toLowerCase()).length > 0 &&
      wholeTokenMatches(lower, from.toLowerCase()).length === 0
    )
      continue;
    const found = wholeTokenMatches(lower, from.toLowerCase());
    if (found.length !== 1) return undefined;
    const at = found[0]!;
    const written = result.slice(at, at + from.length);
    result = result.slice(0, at) + sameInitialCase(to, written) + result.slice(at + from.length);
    carried++;
  }
  return carried > 0 ? result : undefined;
}

function sameInitialCase(text: string, like: string): string {
  const first = like[0];
  if (!first || first === first.toLowerCase()) return text;
  return text[0]!.toUpperCase() + text.slice(1);
}

/** A number or code (holds a digit) or a name (starts with a capital, not only at a sentence start). */
function carriable(token: string): boolean {
  return /\p{N}/u.test(token) || /^\p{Lu}/u.test(token);
}

/** The token as written in `text` (tokens are lower-cased), or undefined when it is not found as a word. */
function originalToken(text: string, token: string): string | undefined {
  const lower = text.normalize('NFC').toLowerCase();
  for (const index of wholeTokenMatches(lower, token)) {
    return text.normalize('NFC').slice(index, index + token.length);
  }
  return undefined;
}

function wholeTokenMatches(text: string, token: string): number[] {
  const found: number[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf(token, from);
    if (at < 0) return found;
    const before = text[at - 1] ?? ' ';
    const after = text[at + token.length] ?? ' ';
    if (!/[\p{L}\p{N}\p{M}]/u.test(before) && !/[\p{L}\p{N}\p{M}]/u.test(after)) found.push(at);
    from = at + 1;
  }
}

/** The token hunks turning `a` into `b` (LCS alignment): what was removed and what was added in each. */
function differences(
  a: readonly string[],
  b: readonly string[],
): { removed: string[]; added: string[]; removedAt: number[]; addedAt: number[] }[] {
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const hunks: { removed: string[]; added: string[]; removedAt: number[]; addedAt: number[] }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    const hunk = {
      removed: [] as string[],
      added: [] as string[],
      removedAt: [] as number[],
      addedAt: [] as number[],
    };
    while ((i < a.length || j < b.length) && !(i < a.length && j < b.length && a[i] === b[j])) {
      if (j < b.length && (i >= a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
        hunk.addedAt.push(j);
        hunk.added.push(b[j++]!);
      } else {
        hunk.removedAt.push(i);
        hunk.removed.push(a[i++]!);
      }
    }
    hunks.push(hunk);
  }
  return hunks;
}

function differenceSpans(a: readonly Token[], b: readonly Token[]): { removed: Token[]; added: Token[] }[] {
  const hunks = differences(
    a.map((token) => token.text),
    b.map((token) => token.text),
  );
  return hunks.map(({ removedAt, addedAt }) => ({
    removed: removedAt.map((index) => a[index]!),
    added: addedAt.map((index) => b[index]!),
  }));
}
