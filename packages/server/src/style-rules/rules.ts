/**
 * Configured style rules applied as deterministic post-editing of the translation, per target language.
 * Each rule names its option values; a known rule with another value is refused when a list is saved.
 * Rules not in this table are stored and returned but change nothing (docs/resources.md lists the table).
 */
import { type ConfiguredRules, STYLE_RULE_OPTIONS } from '@glossa/protocol';

type Apply = (text: string, value: string, language: string) => string;

export interface RuleDefinition {
  /** The option values the public description declares for the rule (or Glossa's, for a rule it lacks). */
  readonly values: readonly string[];
  /** The effect of an option value (`apply`'s value), or undefined for a value that changes nothing here. */
  readonly effect?: (value: string) => string | undefined;
  /** Root languages the rule changes text in; absent: every language. */
  readonly languages?: readonly string[];
  readonly apply: Apply;
}

const swapWords = (text: string, pairs: readonly (readonly [RegExp, string])[]) =>
  pairs.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);

/** Era markers per language: [BC, AD, BCE, CE] written as the language writes them. */
const ERAS: Record<string, readonly [string, string, string, string]> = {
  en: ['BC', 'AD', 'BCE', 'CE'],
  de: ['v. Chr.', 'n. Chr.', 'v. u. Z.', 'n. u. Z.'],
  es: ['a. C.', 'd. C.', 'a. e. c.', 'e. c.'],
  fr: ['av. J.-C.', 'apr. J.-C.', 'av. n. è.', 'de n. è.'],
};
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const marker = (text: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(text).replace(/ /g, '\\s?')}(?![\\p{L}\\p{N}])`, 'gu');

const calendarEra: Apply = (text, value, language) => {
  const eras = ERAS[language];
  if (!eras) return text;
  const [bc, ad, bce, ce] = eras;
  return value === 'use_bc_and_ad'
    ? swapWords(text, [
        [marker(bce), bc],
        [marker(ce), ad],
      ])
    : swapWords(text, [
        [marker(bc), bce],
        [marker(ad), ce],
      ]);
};

/** Degree abbreviations as [without periods, with periods]. */
const DEGREES: readonly (readonly [string, string])[] = [
  ['PhD', 'Ph.D.'], ['DPhil', 'D.Phil.'], ['MPhil', 'M.Phil.'], ['EdD', 'Ed.D.'], ['MBA', 'M.B.A.'],
  ['MSc', 'M.Sc.'], ['BSc', 'B.Sc.'], ['LLB', 'LL.B.'], ['LLM', 'LL.M.'], ['MA', 'M.A.'], ['BA', 'B.A.'],
  ['MS', 'M.S.'], ['BS', 'B.S.'], ['MD', 'M.D.'],
]; // biome-ignore format: a word list

const academicDegrees: Apply = (text, value) => {
  let result = text;
  for (const [plain, dotted] of DEGREES) {
    if (value === 'do_not_use') {
      // A dotted degree ending the sentence keeps one period as the sentence's own.
      result = result.replace(
        new RegExp(`(?<![\\p{L}.])${escapeRegExp(dotted)}`, 'gu'),
        (found: string, offset: number, whole: string) => {
          const rest = whole.slice(offset + found.length);
          return /^\s*$|^\s+\p{Lu}/u.test(rest) ? `${plain}.` : plain;
        },
      );
    } else {
      result = result.replace(
        new RegExp(`(?<![\\p{L}.])${plain}(?![\\p{L}\\p{N}])(\\.)?`, 'gu'),
        () => dotted,
      );
    }
  }
  return result;
};

const ellipsis: Apply = (text, value) =>
  value === 'character' ? text.replace(/(?<!\.)\.\.\.(?!\.)/g, '…') : text.replace(/…/g, '...');

/** Primary quotation marks per root language (open, close). */
const QUOTES: Record<string, readonly [string, string]> = {
  en: ['“', '”'], de: ['„', '“'], fr: ['« ', ' »'], es: ['«', '»'], it: ['«', '»'], ja: ['「', '」'],
  ko: ['“', '”'], zh: ['“', '”'],
}; // biome-ignore format: a word list

const quotationMarks: Apply = (text, value, language) => {
  if (value === 'straight')
    return text
      .replace(/[“”„«»「」]\u00a0?|\u00a0»/g, (mark) => (mark.trim() === '' ? mark : '"'))
      .replace(/\u00a0?"\u00a0?/g, '"');
  const [open, close] = QUOTES[language] ?? ['“', '”'];
  let opening = true;
  return text.replace(/"/g, () => {
    const mark = opening ? open.replace(' ', '\u00a0') : close.replace(' ', '\u00a0');
    opening = !opening;
    return mark;
  });
};

const highPunctuation: Apply = (text, value) =>
  value === 'use'
    ? text
        .replace(/(?<=[\p{L}\p{N}»])\s*([;!?])/gu, '\u202f$1')
        .replace(/(?<=[\p{L}\p{N}»])\s*:(?!\/\/|\d)/gu, '\u00a0:')
    : text.replace(/[ \u00a0\u202f]+([;:!?])/g, '$1');

const percentSpacing: Apply = (text, value) =>
  value === 'space'
    ? text.replace(/(\d)[ \u202f]?%/g, '$1\u00a0%')
    : text.replace(/(\d)[ \u00a0\u202f]%/g, '$1%');

/** [American, British, suffixes kept after the stem]. */
const OUR = '(s|ed|ing|ful|able|ite|ites)?';
const RE = '(s)?';
const IZE = '(e|es|ed|ing|ation|ations|er|ers)';
const WORD = '(s)?';
const NONE = '()';
const SPELLINGS: readonly (readonly [string, string, string])[] = [
  ['color', 'colour', OUR], ['favor', 'favour', OUR], ['honor', 'honour', OUR], ['behavior', 'behaviour', OUR],
  ['labor', 'labour', OUR], ['neighbor', 'neighbour', OUR], ['center', 'centre', RE], ['theater', 'theatre', RE],
  ['liter', 'litre', RE], ['fiber', 'fibre', RE], ['organiz', 'organis', IZE], ['realiz', 'realis', IZE],
  ['recogniz', 'recognis', IZE], ['apologiz', 'apologis', IZE], ['customiz', 'customis', IZE],
  ['optimiz', 'optimis', IZE], ['prioritiz', 'prioritis', IZE], ['authoriz', 'authoris', IZE],
  ['analyz', 'analys', IZE], ['catalog', 'catalogue', WORD], ['defense', 'defence', WORD], ['gray', 'grey', WORD],
  ['traveled', 'travelled', NONE], ['traveling', 'travelling', NONE], ['canceled', 'cancelled', NONE],
  ['canceling', 'cancelling', NONE], ['modeling', 'modelling', NONE], ['labeled', 'labelled', NONE],
  ['labeling', 'labelling', NONE], ['jewelry', 'jewellery', NONE], ['aluminum', 'aluminium', NONE],
]; // biome-ignore format: a word list

const keepCase = (found: string, replacement: string) =>
  found === found.toUpperCase() && found.length > 1
    ? replacement.toUpperCase()
    : found[0] === found[0]!.toUpperCase()
      ? replacement[0]!.toUpperCase() + replacement.slice(1)
      : replacement;

const englishVariant: Apply = (text, value) => {
  let result = text;
  for (const [american, british, suffixes] of SPELLINGS) {
    const [from, to] = value === 'british' ? [american, british] : [british, american];
    const pattern = new RegExp(`(?<![\\p{L}])${from}${suffixes}(?![\\p{L}])`, 'giu');
    result = result.replace(pattern, (found, suffix: string | undefined) =>
      keepCase(found, to + (suffix ?? '')),
    );
  }
  return result;
};

const timeFormat: Apply = (text, value, language) => {
  if (value === '24_hour') {
    return text.replace(
      /\b(1[0-2]|0?[1-9])(?::([0-5]\d))?\s?([AaPp])\.?\s?[Mm]\.?(?![\p{L}])/gu,
      (_m, h: string, m = '00', half: string) => {
        let hour = Number(h) % 12;
        if (half.toLowerCase() === 'p') hour += 12;
        return `${String(hour).padStart(2, '0')}:${m}`;
      },
    );
  }
  if (language !== 'en') return text;
  return text.replace(
    /(?<![\d:])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])(?!\s?[AaPp]\.?[Mm])/g,
    (_m, h: string, m: string) => {
      const hour = Number(h);
      return `${hour % 12 === 0 ? 12 : hour % 12}:${m} ${hour < 12 ? 'AM' : 'PM'}`;
    },
  );
};

export const STYLE_RULES: Readonly<Record<string, Readonly<Record<string, RuleDefinition>>>> = {
  dates_and_times: {
    calendar_era: {
      values: ['use_bc_and_ad', 'use_bce_and_ce'],
      languages: Object.keys(ERAS),
      apply: calendarEra,
    },
    time_format: {
      values: STYLE_RULE_OPTIONS.dates_and_times.time_format,
      effect: (value) =>
        value.startsWith('use_24_hour') || value.includes('german_word_uhr')
          ? '24_hour'
          : value.startsWith('use_12_hour')
            ? '12_hour'
            : undefined,
      apply: timeFormat,
    },
  },
  punctuation: {
    periods_in_academic_degrees: {
      values: STYLE_RULE_OPTIONS.punctuation.periods_in_academic_degrees,
      apply: academicDegrees,
    },
    ellipsis: {
      values: STYLE_RULE_OPTIONS.punctuation.ellipsis,
      effect: (value) =>
        value === 'use_ellipsis_character' || value === 'use_one_ellipsis_character'
          ? 'character'
          : value === 'use_three_periods' || value === 'use_three_periods_without_spaces'
            ? 'three_periods'
            : undefined,
      apply: ellipsis,
    },
    quotation_mark: {
      values: STYLE_RULE_OPTIONS.punctuation.quotation_mark,
      effect: (value) =>
        value === 'use_curly_quotation_marks' || value === 'use_double_curly_quotation_marks'
          ? 'curly'
          : value === 'use_straight_quotation_marks' || value === 'use_double_straight_quotation_marks'
            ? 'straight'
            : undefined,
      apply: quotationMarks,
    },
    space_before_high_punctuation: {
      values: ['use', 'do_not_use'],
      languages: ['fr'],
      apply: highPunctuation,
    },
  },
  numbers: {
    percent_sign_spacing: { values: ['space', 'no_space'], apply: percentSpacing },
  },
  spelling: {
    english_variant: { values: ['american', 'british'], languages: ['en'], apply: englishVariant },
  },
};

const DESCRIBED: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = STYLE_RULE_OPTIONS;

/**
 * A message naming the problem when a known rule (one of the public description's, or one Glossa applies) has
 * a value it does not know; else undefined. Rules known to neither are stored and change nothing.
 */
export function checkConfiguredRules(rules: ConfiguredRules): string | undefined {
  for (const [category, entries] of Object.entries(rules)) {
    for (const [rule, value] of Object.entries(entries)) {
      const values = DESCRIBED[category]?.[rule] ?? STYLE_RULES[category]?.[rule]?.values;
      if (values && !values.includes(value)) {
        return `Value '${value}' is not valid for rule '${category}.${rule}' (expected one of: ${values.join(', ')}).`;
      }
    }
  }
  return undefined;
}

/** The text with every known configured rule applied for the target's root language. */
export function applyConfiguredRules(text: string, rules: ConfiguredRules, language: string): string {
  let result = text;
  for (const [category, entries] of Object.entries(rules)) {
    for (const [rule, value] of Object.entries(entries)) {
      const definition = STYLE_RULES[category]?.[rule];
      if (!definition?.values.includes(value)) continue;
      if (definition.languages && !definition.languages.includes(language)) continue;
      const effect = definition.effect ? definition.effect(value) : value;
      if (effect !== undefined) result = definition.apply(result, effect, language);
    }
  }
  return result;
}
