import { applyEdits, confidentSpellingFix, type Edit } from './edits.js';
import { checkFrench, type FrenchError, frenchMorphology, frenchSuggestions } from './grammalecte.js';
import { isCheckable } from './spelling.js';

/** Grammalecte's typographic rule types (curly apostrophes, non-breaking spaces, spacing, ellipses, the space
 * between a number and its unit): house style, not errors, so `correct` leaves them. */
const TYPOGRAPHY = new Set(['apos', 'nbsp', 'esp', 'typo', 'unit']);

/** A message that makes its own fix conditional ("S’il s’agit d’un impératif, ...", "Si ‹Ko› est une unité
 * ..."): Grammalecte is not sure, so neither is `correct` ("Définit le délai" is not "Définis"). */
const HEDGED = /^(?:Si|S[’']il|S[’']ils)\s/u;

/**
 * Corrects French with Grammalecte: a grammar error is fixed when Grammalecte offers exactly one
 * suggestion (agreement, past participle, elision...) and does not hedge it; a spelling error when the fix
 * is confident. Two
 * passes, since fixing one agreement often reveals the next ("Les chat mange" → "Les chats mangent").
 */
export async function correctFrench(text: string): Promise<string> {
  let current = text;
  for (let pass = 0; pass < 2; pass++) {
    const { grammar, spelling } = await checkFrench(current);
    const chars = Array.from(current);
    const edits: Edit[] = [];
    const nouns = await nounsMisreadAsVerbs(current, grammar);
    for (const error of grammar) {
      if (error.suggestions.length === 1 && !TYPOGRAPHY.has(error.type) && !HEDGED.test(error.message)) {
        const replacement = nouns.has(error) ? nouns.get(error) : error.suggestions[0]!;
        if (replacement !== undefined) edits.push({ start: error.start, end: error.end, replacement });
      }
    }
    for (const error of spelling) {
      const word = chars.slice(error.start, error.end).join('');
      if (!isCheckable(current, word, error.start)) continue;
      const fix = confidentSpellingFix(word, error.suggestions);
      if (fix !== undefined) edits.push({ start: error.start, end: error.end, replacement: fix });
    }
    if (edits.length === 0) break;
    current = applyEdits(current, edits);
  }
  return current;
}

/** Whether one of Grammalecte's readings (`>lemma/:tags/*`) has the tag (`:N`, `:D`, ...). */
const hasTag = (readings: readonly string[], tag: string) =>
  readings.some((reading) => reading.split('/')[1]?.split(':').includes(tag.slice(1)));

/** Whether a reading is a determiner's: `:D`, or a kind of one (`:Dd` "ces", `:Dp` "mes", `:Di` "plusieurs"). */
const isDeterminer = (reading: string) =>
  (reading.split('/')[1]?.split(':') ?? []).some((tag) => /^D[a-z]?$/u.test(tag));

/** The grammatical number a determiner's readings agree on (`les` → p, `le` → s), or undefined (`de`: either). */
function determinerNumber(readings: readonly string[]): 's' | 'p' | undefined {
  const numbers = new Set(
    readings.filter(isDeterminer).map((reading) =>
      reading
        .split('/')[1]
        ?.split(':')
        .find((tag) => tag === 's' || tag === 'p' || tag === 'i'),
    ),
  );
  if (numbers.size !== 1) return undefined;
  const [number] = numbers;
  return number === 's' || number === 'p' ? number : undefined;
}

/**
 * Grammar fixes after a determiner that would make the word a verb form where the sentence needs a noun,
 * by Grammalecte's morphology: the word is no noun, nor is the fix ("les musé" → the participle "musés",
 * "de musé" → the infinitive "muser"), so the writer misspelled a noun ("musée"). Such a fix is replaced by the
 * noun when its number is sure: the one noun among Grammalecte's spelling suggestions for the word, in the
 * determiner's number ("les musé" → "musées", plural as "les"); when the determiner has no number of its own
 * ("de") or several nouns are as close, the word is left alone. Keyed by error: the replacement, or undefined
 * for "leave alone".
 */
async function nounsMisreadAsVerbs(
  text: string,
  grammar: readonly FrenchError[],
): Promise<Map<FrenchError, string | undefined>> {
  const chars = Array.from(text);
  const found = new Map<FrenchError, string | undefined>();
  const candidates = grammar.flatMap((error) => {
    if (error.suggestions.length !== 1) return [];
    const word = chars.slice(error.start, error.end).join('');
    const previous = chars
      .slice(0, error.start)
      .join('')
      .match(/([\p{L}]+)['’]?\s*$/u)?.[1];
    return previous === undefined ? [] : [{ error, word, previous }];
  });
  if (candidates.length === 0) return found;
  const asked = candidates.flatMap(({ error, word, previous }) => [word, error.suggestions[0]!, previous]);
  const morphology = await frenchMorphology(asked);
  for (const [index, { error, word }] of candidates.entries()) {
    const [own, fixed, before] = [0, 1, 2].map((offset) => morphology[3 * index + offset] ?? []);
    if (!before!.some(isDeterminer) || hasTag(own!, ':N') || hasTag(fixed!, ':N')) continue;
    found.set(error, await nounInNumber(word, determinerNumber(before!)));
  }
  return found;
}

/** The one noun Grammalecte suggests for `word`, in `number` (singular or with -s/-x), or undefined. */
async function nounInNumber(word: string, number: 's' | 'p' | undefined): Promise<string | undefined> {
  if (number === undefined) return undefined;
  const nouns = (await frenchSuggestions(word)).filter(
    (suggestion) => suggestion.toLowerCase() === suggestion && !/['’\s-]/u.test(suggestion),
  );
  const forms = nouns.flatMap((noun) => [noun, `${noun}s`, `${noun}x`]);
  const readings = await frenchMorphology(forms);
  const matching = new Set(
    forms.filter((_, index) =>
      (readings[index] ?? []).some((reading) => {
        const tags = reading.split('/')[1]?.split(':') ?? [];
        return tags.includes('N') && (tags.includes(number) || tags.includes('i'));
      }),
    ),
  );
  return matching.size === 1 ? [...matching][0] : undefined;
}
