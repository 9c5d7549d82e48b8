/**
 * Deterministic English rewrites for `rephrase`, one list per writing style and per tone. Each rule is a
 * whole-word, case-insensitive phrase replacement that keeps the capital of the first letter. What each
 * does is listed in packages/server-language-tools/docs/language-tools.md; nothing here is random or model-based.
 */

/**
 * `from` → `to`; a third element `'plural'` applies the rule only before a plural noun: "a lot of" becomes
 * "many" before "investments", never before "investment" (a mass noun: "many investment" is not English).
 */
export type Rule = readonly [from: string, to: string, only?: 'plural'];

const CONTRACTIONS: readonly Rule[] = [
  ["can't", 'cannot'],
  ["won't", 'will not'],
  ["shan't", 'shall not'],
  ["n't", ' not'],
  ["I'm", 'I am'],
  ["let's", 'let us'],
  ["it's", 'it is'],
  ["that's", 'that is'],
  ["there's", 'there is'],
  ["what's", 'what is'],
  ["he's", 'he is'],
  ["she's", 'she is'],
  ["'re", ' are'],
  ["'ve", ' have'],
  ["'ll", ' will'],
  ["'d", ' would'],
];

/** Contracted forms for casual and friendly text: the reverse of the common expansions. */
const CONTRACT: readonly Rule[] = [
  ['do not', "don't"],
  ['does not', "doesn't"],
  ['did not', "didn't"],
  ['is not', "isn't"],
  ['are not', "aren't"],
  ['was not', "wasn't"],
  ['were not', "weren't"],
  ['have not', "haven't"],
  ['has not', "hasn't"],
  ['cannot', "can't"],
  ['will not', "won't"],
  ['would not', "wouldn't"],
  ['should not', "shouldn't"],
  ['could not', "couldn't"],
  ['I am', "I'm"],
  ['we are', "we're"],
  ['you are', "you're"],
  ['they are', "they're"],
  ['it is', "it's"],
  ['that is', "that's"],
  ['let us', "let's"],
  ['I have', "I've"],
  ['we have', "we've"],
  ['I will', "I'll"],
  ['we will', "we'll"],
];

/** Filler words that add nothing in formal writing. */
const FILLERS: readonly Rule[] = [
  ['basically ', ''],
  ['actually ', ''],
  ['really ', ''],
  ['totally ', ''],
  ['literally ', ''],
  ['just ', ''],
  ['kind of ', ''],
  ['sort of ', ''],
  ['pretty much ', ''],
];

/** Hedges that weaken a statement. */
const HEDGES: readonly Rule[] = [
  ['I think that ', ''],
  ['I think ', ''],
  ['I believe that ', ''],
  ['I believe ', ''],
  ['I guess ', ''],
  ['I feel like ', ''],
  ['maybe ', ''],
  ['perhaps ', ''],
  ['possibly ', ''],
  ['probably ', ''],
  ['somewhat ', ''],
  ['it seems that ', ''],
  ['might ', 'will '],
  ['could be ', 'is '],
  ['hopefully ', ''],
];

/** Wordy or informal phrases and their plainer, formal equivalents. */
const CONCISE: readonly Rule[] = [
  ['in order to', 'to'],
  ['due to the fact that', 'because'],
  ['at this point in time', 'now'],
  ['in the event that', 'if'],
  ['a large number of', 'many', 'plural'],
  ['for the purpose of', 'for'],
  ['with regard to', 'regarding'],
];

const BUSINESS_WORDS: readonly Rule[] = [
  ['ASAP', 'as soon as possible'],
  ['FYI', 'for your information'],
  ['thanks a lot', 'thank you very much'],
  ['thanks', 'thank you'],
  ['hi', 'hello'],
  ['hey', 'hello'],
  ['a lot of', 'many', 'plural'],
  ['get back to you', 'follow up with you'],
  ['find out', 'determine'],
];

const ACADEMIC_WORDS: readonly Rule[] = [
  ['a lot of', 'a considerable number of', 'plural'],
  ['lots of', 'numerous', 'plural'],
  ['big', 'substantial'],
  ['show', 'demonstrate'],
  ['look at', 'examine'],
  ['find out', 'determine'],
];

const CASUAL_WORDS: readonly Rule[] = [
  ['utilize', 'use'],
  ['purchase', 'buy'],
  ['assist', 'help'],
  ['obtain', 'get'],
  ['require', 'need'],
  ['commence', 'start'],
  ['therefore', 'so'],
  ['however', 'but'],
  ['hello', 'hi'],
  ['thank you', 'thanks'],
];

const SIMPLE_WORDS: readonly Rule[] = [
  ['utilize', 'use'],
  ['approximately', 'about'],
  ['commence', 'start'],
  ['facilitate', 'help'],
  ['subsequently', 'later'],
  ['additional', 'more'],
  ['sufficient', 'enough'],
  ['demonstrate', 'show'],
  ['numerous', 'many'],
  ['prior to', 'before'],
  ['in addition', 'also'],
];

const FRIENDLY_WORDS: readonly Rule[] = [
  ['hello', 'hi'],
  ['dear', 'hi'],
  ['thank you', 'thanks so much'],
  ['regards', 'best wishes'],
  ['unfortunately', 'sadly'],
  ['you must', 'please'],
];

const DIPLOMATIC_WORDS: readonly Rule[] = [
  ['you must', 'you may want to'],
  ['you need to', 'it would help to'],
  ['you should', 'you might consider'],
  ['I disagree', 'I see it a little differently'],
  ['this is wrong', 'this may not be quite right'],
  ['wrong', 'not quite right'],
  ['bad', 'not ideal'],
  ['impossible', 'very difficult'],
  ['no', 'unfortunately not'],
];

const ENTHUSIASTIC_WORDS: readonly Rule[] = [
  ['good', 'great'],
  ['nice', 'wonderful'],
  ['interesting', 'exciting'],
  ['happy', 'delighted'],
  ['like', 'love'],
  ['glad', 'thrilled'],
];

export interface Rewrite {
  readonly rules: readonly Rule[];
  /** Turn the text's final period into an exclamation mark. */
  readonly exclaim: boolean;
}

const plain = (rules: readonly Rule[], exclaim = false): Rewrite => ({ rules, exclaim });

export const WRITING_STYLE_REWRITES: Readonly<Record<string, Rewrite>> = {
  default: plain([]),
  simple: plain([...CONCISE, ...SIMPLE_WORDS]),
  business: plain([...FILLERS, ...HEDGES.slice(0, 5), ...CONCISE, ...BUSINESS_WORDS]),
  academic: plain([...CONTRACTIONS, ...FILLERS, ...CONCISE, ...ACADEMIC_WORDS]),
  casual: plain([...CASUAL_WORDS, ...CONTRACT]),
};

export const TONE_REWRITES: Readonly<Record<string, Rewrite>> = {
  default: plain([]),
  friendly: plain([...FRIENDLY_WORDS, ...CONTRACT]),
  confident: plain([...HEDGES, ...FILLERS.slice(5)]),
  diplomatic: plain(DIPLOMATIC_WORDS),
  enthusiastic: plain(ENTHUSIASTIC_WORDS, true),
};

/** Applies a rewrite to English text. */
export function applyRewrite(text: string, rewrite: Rewrite): string {
  let current = text;
  for (const [from, to, only] of rewrite.rules) current = replacePhrase(current, from, to, only === 'plural');
  current = current.replace(/ {2,}/g, ' ').replace(/ ([,.;:!?])/g, '$1');
  // Sentences start with a capital, also where a rule removed the first words ("I think we can" → "We can").
  current = current.replace(/(^|[.!?]\s+)(\p{Ll})/gu, (_, before, letter) => before + letter.toUpperCase());
  if (rewrite.exclaim) current = current.replace(/\.(\s*)$/, '!$1');
  return current;
}

/**
 * Replaces `from` where it stands as whole words (a rule starting with an apostrophe or `n't` attaches to the
 * word before it), keeping a capital first letter.
 */
function replacePhrase(text: string, from: string, to: string, pluralOnly = false): string {
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "['’]");
  const attached = /^['n]/.test(from) && from.includes("'");
  const start = attached ? '(?<=\\p{L})' : "(?<![\\p{L}\\p{N}'’])";
  const end = from.endsWith(' ') ? '' : '(?![\\p{L}\\p{N}])';
  // An article right before the phrase is matched too: it must follow the phrase's replacement ("an
  // impossible task" → "a very difficult task", "a really interesting" → "an interesting").
  const article = attached ? '' : "(?:(?<![\\p{L}\\p{N}'’])(an?) )?";
  const pattern = new RegExp(`${article}${start}${escaped}${end}`, 'giu');
  return text.replace(pattern, (found: string, ...rest: unknown[]) => {
    const articleText = attached ? undefined : (rest[0] as string | undefined);
    const offset = rest[attached ? 0 : 1] as number;
    const after = text.slice(offset + found.length);
    if (pluralOnly && !PLURAL.test(after)) return found;
    const phrase = articleText === undefined ? found : found.slice(articleText.length + 1);
    if (attached) return to;
    let replaced = to;
    if (to !== '') {
      const first = phrase[0]!;
      const capitalized =
        first !== first.toLowerCase() && (phrase.length === 1 || phrase !== phrase.toUpperCase());
      if (capitalized) replaced = to[0]!.toUpperCase() + to.slice(1);
    }
    if (articleText === undefined) return replaced;
    const next = to === '' ? after : to;
    const wanted = articleFor(next);
    const fixed = articleText[0] === 'A' ? wanted[0]!.toUpperCase() + wanted.slice(1) : wanted;
    return `${fixed} ${replaced}`;
  });
}

/** A plural noun next: a word ending in -s (not -ss, -us, -is) or an irregular plural, after optional adjectives. */
const PLURAL =
  /^\s*(?:[\p{L}-]+\s+){0,2}?(?:[\p{L}-]*[^\Wsui]s|people|children|men|women|feet|teeth|mice|data|criteria)\b/iu;

/** "a" or "an" before a word, by its sound as far as spelling tells (an hour, a university, an FAQ). */
function articleFor(next: string): 'a' | 'an' {
  const word = next.trimStart().match(/^[\p{L}\p{N}]+/u)?.[0] ?? '';
  const lower = word.toLowerCase();
  if (/^(?:hour|honest|honou?r|heir)/.test(lower)) return 'an';
  if (/^(?:uni|use|usu|eu|one|once|ur[aeiou])/.test(lower)) return 'a';
  if (word.length > 1 && word === word.toUpperCase() && /^[AEFHILMNORSX]/.test(word)) return 'an';
  return /^[aeiou]/.test(lower) ? 'an' : 'a';
}
