/**
 * The deterministic subset of custom instructions. Two forms are understood (case-insensitive, terms in
 * straight or typographic quotes, or bare when they hold no quote):
 * - term preferences: `Use "X" instead of "Y"`, `Use X rather than Y`, `Always use "X", not "Y"`,
 *   `Replace "Y" with "X"`, `Write "X" instead of "Y"`: Y becomes X in the translation (word boundaries,
 *   case-insensitive, a capitalised Y gives a capitalised X);
 * - do-not-translate: `Do not translate "X"`, `Don't translate X`, `Never translate "X"`,
 *   `Keep "X" untranslated`, `Leave "X" untranslated`: X is locked before the engine like a glossary term
 *   whose target is itself.
 * Any other instruction is kept with its list and applied by nothing here.
 */

export type ParsedInstruction =
  | { readonly kind: 'prefer'; readonly use: string; readonly instead: string }
  | { readonly kind: 'keep'; readonly term: string };

const Q = `["'“”‘’«»„]`;
const TERM = `${Q}?([^"“”‘’«»„]+?)${Q}?`;
const END = `\\s*[.!]?\\s*$`;
const PREFER = new RegExp(
  `^\\s*(?:always\\s+)?(?:use|write|say|prefer)\\s+${TERM}\\s*,?\\s+(?:instead\\s+of|rather\\s+than|not|over)\\s+${TERM}${END}`,
  'iu',
);
const REPLACE = new RegExp(`^\\s*replace\\s+${TERM}\\s+(?:with|by)\\s+${TERM}${END}`, 'iu');
const KEEP = new RegExp(
  `^\\s*(?:(?:do\\s+not|don't|don’t|never)\\s+translate\\s+${TERM}|(?:keep|leave)\\s+${TERM}\\s+(?:untranslated|as\\s+is|in\\s+the\\s+source\\s+language))${END}`,
  'iu',
);

/** The instruction as a deterministic rule, or undefined when it is not one of the understood forms. */
export function parseInstruction(prompt: string): ParsedInstruction | undefined {
  const prefer = PREFER.exec(prompt);
  if (prefer) return valid({ kind: 'prefer', use: prefer[1]!.trim(), instead: prefer[2]!.trim() });
  const replace = REPLACE.exec(prompt);
  if (replace) return valid({ kind: 'prefer', use: replace[2]!.trim(), instead: replace[1]!.trim() });
  const keep = KEEP.exec(prompt);
  if (keep) return valid({ kind: 'keep', term: (keep[1] ?? keep[2])!.trim() });
  return undefined;
}

function valid(parsed: ParsedInstruction): ParsedInstruction | undefined {
  const terms = parsed.kind === 'prefer' ? [parsed.use, parsed.instead] : [parsed.term];
  return terms.every((term) => term.length > 0 && term.length <= 100) ? parsed : undefined;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Applies the term preferences to a translated text, in order. */
export function applyPreferences(
  text: string,
  preferences: readonly { use: string; instead: string }[],
): string {
  let result = text;
  for (const { use, instead } of preferences) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(instead)}(?![\\p{L}\\p{N}_])`, 'giu');
    result = result.replace(pattern, (found) => {
      const first = found[0]!;
      const capital = first !== first.toLowerCase() && instead[0] === instead[0]!.toLowerCase();
      return capital ? use[0]!.toUpperCase() + use.slice(1) : use;
    });
  }
  return result;
}
