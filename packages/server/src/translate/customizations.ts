/**
 * Glossaries, translation memory, style rules and custom instructions around the engine call of
 * /v2/translate. Per unit (a sentence, or a structural piece of markup):
 * 1. translation memory: an exact match at or above the threshold is the output (a markup unit with inline
 *    codes matches segments with the same codes and takes the request's tags, see `memory-units.ts`); a fuzzy
 *    one only when what differs can be carried into its target (`memories/carry-over.ts`), else the engine
 *    translates the unit and the match is still reported;
 * 2. glossary terms (glossaries in request order) and "do not translate" terms are locked in codes;
 * 3. the engine translates the rest; codes become the target terms;
 * 4. configured style rules and "use X instead of Y" instructions post-edit the engine's text (outside
 *    markup and before the terms go back in, so they cannot change a glossary term).
 */
import { createHash } from 'node:crypto';
import {
  baseLanguage,
  DEFAULT_TRANSLATION_MEMORY_THRESHOLD,
  type TranslateRequest,
  type TranslationMemoryMatch,
} from '@glossa/protocol';
import type { Caller, ServiceContext } from '../context.js';
import { type EngineTerms, TERM_END, TERM_START } from '../engines/engine.js';
import { loadAgreement } from '../glossaries/agreement.js';
import { candidateEntries, LARGE_GLOSSARY } from '../glossaries/candidates.js';
import type { CompiledGlossary } from '../glossaries/compiled.js';
import { compiledDictionary } from '../glossaries/dictionary.js';
import { entriesOf } from '../glossaries/entries.js';
import { lockTerms } from '../glossaries/lock.js';
import { TermMatcher } from '../glossaries/matcher.js';
import { carryOver, needsEngine } from '../memories/carry-over.js';
import { configureMemoryBudget } from '../memory-budget.js';
import { applyPreferences, parseInstruction } from '../style-rules/instructions.js';
import { applyConfiguredRules } from '../style-rules/rules.js';
import { decodeEntities, escapeText } from './markup-parse.js';
import { locateUnit, memoryAnswer } from './memory-units.js';

export interface UnitMatch {
  readonly memoryId: string;
  readonly segmentId: number;
  readonly score: number;
}

const TERM_PIECE = new RegExp(`${TERM_START}[^${TERM_END}]*${TERM_END}`, 'g');
/** One private-use character per term while post-editing (U+E100…U+E8FF). */
const TERM_MASK = 0xe100;
const TERM_MASKS = /[\ue100-\ue8ff]/g;

/** Instructions forwarded to an engine per request, at most (the interface's limit on translate). */
const MAX_FORWARDED_INSTRUCTIONS = 10;

export interface Customizations {
  /** Custom instructions outside the deterministic subset, for engines that can follow them (upstream). */
  readonly instructions: readonly string[];
  /**
   * One output per unit; `engine` is called with the units the memory did not answer (once per markup
   * mode). With `nativeTerms` (an engine that inflects glossary terms itself, `supportsTerms`), the
   * glossaries go to the engine as `terms` instead of being locked in codes.
   */
  translate(
    units: readonly string[],
    markup: boolean,
    engine: (texts: string[], markup: boolean, terms?: EngineTerms) => Promise<string[]>,
    nativeTerms?: boolean,
  ): Promise<{ outputs: string[]; matches: (UnitMatch | undefined)[] }>;
}

/** The request's customizations, or undefined when it has none. Resources were checked (404) before. */
export async function loadCustomizations(
  request: TranslateRequest,
  source: string | undefined,
  target: string,
  caller: Caller,
  context: ServiceContext,
): Promise<Customizations | undefined> {
  configureMemoryBudget(context.options.memoryBudgetMb);
  const accountId = caller.account.id;
  const resources = context.resources;
  const language = baseLanguage(target);
  const glossaries: CompiledGlossary[] = [];
  const glossaryIds =
    request.glossary_ids ?? (request.glossary_id !== undefined ? [request.glossary_id] : []);
  for (const id of glossaryIds) {
    const glossary = await resources.glossary(accountId, id);
    if (!glossary || source === undefined) continue;
    const pair = { source: baseLanguage(source), target: language };
    glossaries.push(await compiledDictionary(resources, accountId, glossary, pair));
  }
  const termsKey = glossaries.map((glossary) => glossary.key).join('|');
  const large = glossaries.reduce((sum, glossary) => sum + glossary.entries.length, 0) > LARGE_GLOSSARY;
  const terms: EngineTerms | undefined =
    glossaries.length === 0 || large
      ? undefined
      : { key: termsKey, entries: glossaries.flatMap((glossary) => entriesOf(glossary.entries)) };
  /**
   * The glossary terms an engine that applies them itself gets for `texts`: the whole glossaries, or for
   * large ones (past `LARGE_GLOSSARY` entries) only the entries the texts may use, keyed by that choice.
   */
  const termsFor = (texts: readonly string[], marked: boolean): EngineTerms | undefined => {
    let chosen = terms;
    if (large) {
      const scanned = texts.flatMap((text) => [text, decodeEntities(text.replace(/<[^>]*>/g, ' '))]);
      const entries: { source: string; target: string }[] = [];
      const picked: string[] = [];
      for (const glossary of glossaries) {
        const indexes = candidateEntries(scanned, glossary.matcher, glossary.words());
        for (const index of indexes)
          entries.push({ source: glossary.entries.source(index), target: glossary.entries.target(index) });
        picked.push(indexes.join(','));
      }
      const digest = createHash('sha256').update(picked.join(';')).digest('base64url').slice(0, 22);
      chosen = { key: `${termsKey}#${digest}`, entries };
    }
    return chosen && marked ? { ...chosen, key: `${chosen.key}|marked`, marked: true } : chosen;
  };

  const list =
    request.style_id === undefined ? undefined : await resources.styleList(accountId, request.style_id);
  const prompts = [
    ...(list?.customInstructions ?? [])
      .filter(
        (item) =>
          item.source_language === undefined ||
          source === undefined ||
          baseLanguage(item.source_language) === baseLanguage(source),
      )
      .map((item) => item.prompt),
    ...(request.custom_instructions ?? []),
  ];
  const preferences: { use: string; instead: string }[] = [];
  const keep: { source: string; target: string }[] = [];
  const forwarded: string[] = [];
  for (const prompt of prompts) {
    const parsed = parseInstruction(prompt);
    if (parsed?.kind === 'prefer') preferences.push(parsed);
    else if (parsed?.kind === 'keep') keep.push({ source: parsed.term, target: parsed.term });
    else if (forwarded.length < MAX_FORWARDED_INSTRUCTIONS) forwarded.push(prompt);
  }
  const keepMatcher = keep.length > 0 ? new TermMatcher(keep) : undefined;
  const matchers = [...glossaries.map((glossary) => glossary.matcher), ...(keepMatcher ? [keepMatcher] : [])];
  const rules = list?.configuredRules ?? {};
  const memoryId = request.translation_memory_id;
  const threshold = request.translation_memory_threshold ?? DEFAULT_TRANSLATION_MEMORY_THRESHOLD;
  if (
    matchers.length === 0 &&
    preferences.length === 0 &&
    forwarded.length === 0 &&
    Object.keys(rules).length === 0 &&
    !memoryId
  )
    return undefined;

  const postEdit = (text: string) =>
    applyPreferences(applyConfiguredRules(text, rules, language), preferences);
  const postEditUnit = (output: string, markup: boolean) =>
    markup
      ? output
          .split(/(<[^>]*>)/)
          .map((piece, index) => (index % 2 === 1 ? piece : escapeText(postEdit(decodeEntities(piece)))))
          .join('')
      : postEdit(output);

  const postEdits = preferences.length > 0 || Object.keys(rules).length > 0;
  /**
   * Post-edits a unit whose terms the engine marked: each term stands as one private-use character while
   * the unit is edited (so rules still see the whole sentence), then comes back as the engine wrote it.
   */
  const postEditAroundTerms = (output: string, markup: boolean) => {
    const kept: string[] = [];
    const masked = output.replace(TERM_PIECE, (piece) => {
      kept.push(piece.slice(1, -1));
      return String.fromCharCode(TERM_MASK + kept.length - 1);
    });
    return postEditUnit(masked, markup).replace(
      TERM_MASKS,
      (mask) => kept[mask.charCodeAt(0) - TERM_MASK] ?? '',
    );
  };

  return {
    instructions: forwarded,
    async translate(units, markup, engine, engineTerms = false) {
      const nativeTerms = engineTerms;
      const outputs = new Array<string>(units.length);
      const matches = new Array<UnitMatch | undefined>(units.length);
      const pending: number[] = [];
      /** Fuzzy matches that the engine's translations may carry over ("a word the engine translates in place"). */
      const inPlace: { index: number; form: MemoryForm; source: string }[] = [];
      // Memory lookups are asynchronous (the memory may be in PostgreSQL): all answers first, in order.
      const answers: Awaited<ReturnType<typeof memoryAnswer>>[] = [];
      if (memoryId !== undefined)
        for (const unit of units)
          answers.push(await memoryAnswer(resources.memories, memoryId, unit, markup, language, threshold));
      units.forEach((unit, index) => {
        const match = answers[index];
        if (!match) {
          pending.push(index);
          return;
        }
        matches[index] = { memoryId: memoryId!, segmentId: match.segmentId, score: match.score };
        if (match.score >= 100 || match.source === undefined) {
          outputs[index] = postEditUnit(match.target, markup);
          return;
        }
        // A fuzzy match is used only where what differs can be carried into its target (a number, a code,
        // a name, a word the engine translates in place); otherwise the engine translates, and the match is
        // still reported. Markup units are compared by their text; their target's codes stay in place.
        const form = memoryForm(unit, match.target, markup);
        const carried = carryOver(form.request, match.source, form.target);
        if (carried !== undefined) outputs[index] = postEditUnit(form.restore(carried), markup);
        else if (needsEngine(form.request, match.source, form.target))
          inPlace.push({ index, form, source: match.source });
        else pending.push(index);
      });
      if (inPlace.length > 0) {
        const translated = await engine(
          inPlace.flatMap(({ form, source }) => [source, form.request]),
          false,
          nativeTerms
            ? termsFor(
                inPlace.flatMap(({ form, source }) => [source, form.request]),
                false,
              )
            : undefined,
        );
        inPlace.forEach(({ index, form, source }, position) => {
          const carried = carryOver(form.request, source, form.target, {
            source: translated[2 * position] ?? '',
            request: translated[2 * position + 1] ?? '',
          });
          if (carried !== undefined) outputs[index] = postEditUnit(form.restore(carried), markup);
          else pending.push(index);
        });
      }
      if (pending.length === 0) return { outputs, matches };
      // An engine that inflects terms gets the glossaries; only "keep" terms are locked for it.
      const lockers = nativeTerms ? (keepMatcher ? [keepMatcher] : []) : matchers;
      // Post-editing (style rules, "use X instead of Y") must not touch a term: the engine marks the terms'
      // words in its output, post-editing skips them, and the marks are removed.
      const locked = pending.map((index) =>
        lockers.length > 0 ? lockTerms(units[index]!, markup, lockers) : undefined,
      );
      // Units with a locked term go to the engine in code form; the others exactly as without a glossary.
      const withCodes = pending.filter((_, position) => locked[position]?.locked && !markup);
      const asGiven = pending.filter((_, position) => !(locked[position]?.locked && !markup));
      const lockedOf = new Map(pending.map((index, position) => [index, locked[position]]));
      const run = async (indexes: number[], codes: boolean) => {
        if (indexes.length === 0) return;
        const texts = indexes.map((index) => {
          const unit = lockedOf.get(index);
          return unit?.locked ? unit.text : units[index]!;
        });
        const termsForEngine = nativeTerms && glossaries.length > 0 ? termsFor(texts, postEdits) : undefined;
        const translated = await engine(texts, codes, termsForEngine);
        // Post-editing runs before the terms go back in, so it cannot change a glossary term either.
        const edited = indexes.map((_, position) =>
          termsForEngine?.marked
            ? postEditAroundTerms(translated[position] ?? '', codes)
            : postEditUnit(translated[position] ?? '', codes),
        );
        const lockedUnits = indexes.map((index) => lockedOf.get(index));
        const agreement = lockedUnits.some((unit) => unit?.locked)
          ? await loadAgreement(
              language,
              lockedUnits.flatMap((unit, position) =>
                unit?.locked ? unit.occurrences(edited[position]!) : [],
              ),
            )
          : undefined;
        indexes.forEach((index, position) => {
          const unit = lockedUnits[position];
          outputs[index] = unit?.locked ? unit.unlock(edited[position]!, agreement) : edited[position]!;
        });
      };
      await Promise.all([run(withCodes, true), run(asGiven, markup)]);
      return { outputs, matches };
    },
  };
}

/** UTF-16 offset → code point offset in `text`. */
function codePointOffset(text: string, index: number): number {
  let count = 0;
  for (let i = 0; i < index; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xdc00 || code > 0xdfff) count++;
  }
  return count;
}

/**
 * `customizations.translation_memory_matches` of one text: one item per unit a memory answered, with the
 * unit's place in the request text as code point offsets (`start` inclusive, `end` exclusive).
 */
export function memoryMatchesOf(
  text: string,
  units: readonly string[],
  matches: readonly (UnitMatch | undefined)[],
): TranslationMemoryMatch[] {
  const result: TranslationMemoryMatch[] = [];
  let cursor = 0;
  units.forEach((unit, index) => {
    const range = locateUnit(text, unit, cursor);
    if (range) cursor = range[1];
    const match = matches[index];
    if (!match) return;
    const text_ranges = range
      ? [{ start: codePointOffset(text, range[0]), end: codePointOffset(text, range[1]) }]
      : [];
    result.push({
      translation_memory_id: match.memoryId,
      segment_id: String(match.segmentId),
      match_score: match.score,
      text_ranges,
    });
  });
  return result;
}

interface MemoryForm {
  /** The request unit as plain text. */
  readonly request: string;
  /** The memory's target as plain text, each code replaced by one private-use character. */
  readonly target: string;
  /** A carried target back in the unit's form (code form, escaped, for a markup unit). */
  restore(carried: string): string;
}

const CODE_MASK = 0xf000;

/** A unit and a memory target in the plain form `carryOver` compares, and the way back. */
function memoryForm(unit: string, target: string, markup: boolean): MemoryForm {
  if (!markup) return { request: unit, target, restore: (carried) => carried };
  const tags: string[] = [];
  const masked = target
    .split(/(<[^>]*>)/)
    .map((piece, index) => {
      if (index % 2 === 0) return decodeEntities(piece);
      tags.push(piece);
      return String.fromCharCode(CODE_MASK + tags.length - 1);
    })
    .join('');
  return {
    request: decodeEntities(unit.replace(/<[^>]*>/g, '')),
    target: masked,
    restore: (carried) =>
      escapeText(carried).replace(/[\uf000-\uf8ff]/g, (mark) => tags[mark.charCodeAt(0) - CODE_MASK] ?? ''),
  };
}
