/**
 * The `apertium` engine: real offline machine translation with Debian's Apertium packages.
 *
 * One long-lived null-flush pipeline per mode (`apertium-process.ts`), inline codes protected as blanks
 * (`apertium-format.ts`), pairs discovered from the installed modes with pivots through Spanish
 * (`apertium-pairs.ts`). Every failure is an `EngineError`; a dead pipeline is restarted on the next call.
 * With glossary terms, each pair's pipeline runs in two halves with the terms put in between
 * (`apertium-terms.ts`).
 */

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { decodeSegment, encodeSegment, stripMarks, tagWords, untagWords } from './apertium-format.js';
import { type ApertiumMode, type ApertiumRoute, discoverRoutes } from './apertium-pairs.js';
import { ApertiumProcess, type ApertiumProcessStatus } from './apertium-process.js';
import {
  buildTermIndex,
  commandProcess,
  generateWords,
  markByLemma,
  markWritten,
  rewriteTerms,
  type SplitMode,
  splitPipeline,
  type TermIndex,
  targetAnalyserOf,
} from './apertium-terms.js';
import type { EngineInput, EngineTerms, LanguagePair, TranslationEngine } from './engine.js';
import { EngineError } from './engine.js';

const run = promisify(execFile);
/** Glossaries analysed per route, most recently used last. */
const TERM_INDEXES = 32;

export interface ApertiumEngineOptions {
  /** Where the `.mode` files are. Default `/usr/share/apertium/modes`. */
  readonly modesDir?: string;
  /** Stop a pair's pipeline after this long without work. Default 60 000 ms. */
  readonly idleMs?: number;
  /** Fail waiting segments (and restart the pipeline later) after this long without output. Default 30 000 ms. */
  readonly timeoutMs?: number;
  /**
   * Pipelines kept running at once (each is a dozen processes, ~150–200 MB). Starting another stops the
   * least recently used idle one; busy ones are never stopped, so this is a soft limit. Default 8.
   */
  readonly maxPipelines?: number;
}

export interface ApertiumEngine extends TranslationEngine {
  /** The pipelines started so far, for health checks and tests. */
  status(): ApertiumProcessStatus[];
}

export function createApertiumEngine(options: ApertiumEngineOptions = {}): ApertiumEngine {
  const modesDir = options.modesDir ?? '/usr/share/apertium/modes';
  const idleMs = options.idleMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxPipelines = options.maxPipelines ?? 8;
  for (const [name, value] of [
    ['idleMs', idleMs],
    ['timeoutMs', timeoutMs],
    ['maxPipelines', maxPipelines],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(`createApertiumEngine: expected ${name} to be a positive number, got ${value}`);
    }
  }
  const { routes, apertiumVersion } = discoverRoutes(modesDir);
  const byPair = new Map(routes.map((route) => [`${route.source}>${route.target}`, route]));
  const pairs: readonly LanguagePair[] = routes.map(({ source, target }) => ({ source, target }));
  const processes = new Map<string, ApertiumProcess>();
  const lastUsed = new Map<ApertiumProcess, number>();
  let clock = 0;
  let closed = false;

  /** Before `next` starts, stops least recently used idle pipelines so at most `maxPipelines` run. */
  const makeRoom = (next: ApertiumProcess) => {
    if (next.status().pid !== undefined) return;
    const running = [...processes.values()].filter((p) => p !== next && p.status().pid !== undefined);
    const idle = running
      .filter((p) => p.status().pending === 0)
      .sort((a, b) => (lastUsed.get(a) ?? 0) - (lastUsed.get(b) ?? 0));
    for (const pipeline of idle.slice(0, Math.max(0, running.length - maxPipelines + 1))) {
      pipeline.stop('stopped to make room for another pair');
    }
  };

  const routeFor = (source: string, target: string): ApertiumRoute => {
    const route = byPair.get(`${source.toLowerCase()}>${canonicalTarget(target)}`);
    if (!route) throw new EngineError(`apertium: no installed pair for ${source} → ${target}`, 'apertium');
    return route;
  };

  const processFor = (mode: ApertiumRoute['modes'][number]) => {
    let pipeline = processes.get(mode.name);
    if (!pipeline) {
      pipeline = new ApertiumProcess({ modeFile: mode.file, idleMs, timeoutMs });
      processes.set(mode.name, pipeline);
    }
    lastUsed.set(pipeline, ++clock);
    makeRoom(pipeline);
    return pipeline;
  };

  /** A helper process (half of a pipeline, an analyser, a generator), counted like the pipelines. */
  const helper = (name: string, script: string) => {
    let tool = processes.get(name);
    if (!tool) {
      tool = commandProcess(name, script, idleMs, timeoutMs);
      processes.set(name, tool);
    }
    lastUsed.set(tool, ++clock);
    makeRoom(tool);
    return tool;
  };

  const targetAnalysers = new Map<string, string | undefined>();
  const targetAnalyser = (mode: ApertiumMode) => {
    if (!targetAnalysers.has(mode.name)) {
      const path = targetAnalyserOf(mode);
      targetAnalysers.set(mode.name, path && existsSync(path) ? path : undefined);
    }
    return targetAnalysers.get(mode.name);
  };
  const splits = new Map<string, Promise<SplitMode>>();
  const splitOf = (mode: ApertiumMode) => {
    let split = splits.get(mode.name);
    if (!split) {
      split = run('apertium-wblank-mode', ['-z', mode.file]).then(({ stdout }) => {
        const analyser = targetAnalyser(mode);
        const halves = analyser && splitPipeline(stdout.trim(), analyser);
        if (!halves) throw new EngineError(`apertium ${mode.name}: cannot apply glossary terms`, 'apertium');
        return halves;
      });
      split.catch(() => splits.delete(mode.name));
      splits.set(mode.name, split);
    }
    return split;
  };
  const indexes = new Map<string, Promise<TermIndex>>();
  const termIndex = async (route: ApertiumRoute, terms: EngineTerms) => {
    const key = `${route.source}>${route.target}\u0000${terms.key}`;
    let index = indexes.get(key);
    if (index) indexes.delete(key);
    else {
      const first = route.modes[0]!;
      const last = route.modes.at(-1)!;
      index = Promise.all([splitOf(first), splitOf(last)]).then(([from, to]) =>
        buildTermIndex(
          terms,
          helper(`${first.name}:source-analyser`, from.sourceAnalyser),
          helper(`${last.name}:target-analyser`, to.targetAnalyser),
        ),
      );
      index.catch(() => indexes.delete(key));
      if (indexes.size >= TERM_INDEXES) indexes.delete(indexes.keys().next().value!);
    }
    indexes.set(key, index);
    return index;
  };

  const translateWithTerms = async (
    text: string,
    input: EngineInput,
    route: ApertiumRoute,
    index: TermIndex,
  ): Promise<string> => {
    const occurrences = new Map<number, string>();
    const segment = encodeSegment(text, input.markup, (plain) => markWritten(index, plain, occurrences));
    if (!segment.hasText && segment.codes.every((code) => code.kind !== 'literal')) return text;
    let stream = segment.stream;
    let outputs: Awaited<ReturnType<typeof rewriteTerms>>['outputs'] | undefined;
    for (const [leg, mode] of route.modes.entries()) {
      const split = await splitOf(mode);
      // A pivot's later leg: codes travel on per-word tags, so they stay on their words (`tagWords`).
      const tagged = leg > 0 && stream.includes('[[') ? tagWords(stripMarks(stream)) : undefined;
      let analysed = await helper(`${mode.name}:analyse`, split.analyse).translate(
        leg === 0 ? stream : (tagged?.stream ?? stripMarks(stream)),
        input.signal,
      );
      // The half pipeline answers with the segment's closing newline, which the next write adds again.
      if (analysed.endsWith('\n')) analysed = analysed.slice(0, -1);
      if (leg === 0) analysed = markByLemma(analysed, index, occurrences);
      if (occurrences.size > 0) {
        const final = leg === route.modes.length - 1;
        const rewritten = await rewriteTerms(
          analysed,
          index,
          occurrences,
          leg === 0 ? route.source : mode.source,
          (requests) => generateWords(helper(`${mode.name}:generator`, split.generator), requests),
          final,
        );
        analysed = rewritten.stream;
        if (final) outputs = rewritten.outputs;
      }
      stream = await helper(`${mode.name}:transfer`, split.transfer).translate(analysed, input.signal);
      if (tagged) stream = untagWords(stream, tagged.entries);
    }
    return decodeSegment(stream, segment, outputs, input.terms?.marked === true);
  };

  const translateOne = async (text: string, input: EngineInput, route: ApertiumRoute): Promise<string> => {
    const segment = encodeSegment(text, input.markup);
    if (!segment.hasText && segment.codes.every((code) => code.kind !== 'literal')) return text;
    let stream = segment.stream;
    for (const [leg, mode] of route.modes.entries()) {
      if (leg === 0) {
        stream = await processFor(mode).translate(stream, input.signal);
        continue;
      }
      // A pivot's later leg: codes travel on per-word tags, so they stay on their words (`tagWords`).
      const tagged = stream.includes('[[') ? tagWords(stripMarks(stream)) : undefined;
      stream = await processFor(mode).translate(tagged?.stream ?? stripMarks(stream), input.signal);
      if (tagged) stream = untagWords(stream, tagged.entries);
    }
    return decodeSegment(stream, segment);
  };

  /**
   * A text of one capitalized word the tagger reads as a proper noun ("Diamond", a label) comes back
   * unchanged: its lower-case form is translated instead, and the capital put back ("Diamante"). A word
   * unknown in lower case too ("Excalidraw", "Budgeted") stays as it came back.
   */
  const translateLabel = async (text: string, input: EngineInput, route: ApertiumRoute): Promise<string> => {
    const output = await translateOne(text, input, route);
    if (output !== text || !/^\p{Lu}\p{Ll}+$/u.test(text)) return output;
    const lower = text.toLowerCase();
    const translated = await translateOne(lower, input, route);
    if (translated.toLowerCase() === lower || !/^\p{L}/u.test(translated)) return output;
    return `${translated[0]!.toUpperCase()}${translated.slice(1)}`;
  };

  /**
   * The source language's analyser of each mode, undefined where the pipeline cannot be split (remembered,
   * so such a mode does not run `apertium-wblank-mode` again on every request).
   */
  const sourceAnalysers = new Map<string, Promise<string | undefined>>();
  /** Each word of `text` as the analyser of the route's first leg sees it: known or not; undefined without one. */
  const analyse = async (route: ApertiumRoute, text: string) => {
    const first = route.modes[0]!;
    let analyser = sourceAnalysers.get(first.name);
    if (!analyser) {
      analyser = splitOf(first).then(
        (split) => split.sourceAnalyser,
        () => undefined,
      );
      sourceAnalysers.set(first.name, analyser);
    }
    const command = await analyser;
    if (!command) return undefined;
    const analysed = await helper(`${first.name}:source-analyser`, command).translate(
      encodeSegment(text, false).stream,
    );
    // Each word comes back as ^surface/analysis...$, an unknown one as ^surface/*surface$.
    return [...analysed.matchAll(/\^((?:\\.|[^/$\\])*)\/((?:\\.|[^$\\])*)\$/g)].map(
      ([, surface, analysis]) => ({
        surface: surface!.replace(/\\(.)/g, '$1'),
        known: !analysis!.startsWith('*'),
      }),
    );
  };
  /** Counts the lower-case words of `text` the analyser of the route's first leg knows. */
  const knownWords = async (route: ApertiumRoute, text: string) => {
    const words = (await analyse(route, text))?.filter((word) => /^\p{Ll}+$/u.test(word.surface));
    return words && { known: words.filter((word) => word.known).length, words: words.length };
  };

  return {
    name: 'apertium',
    pairs: () => pairs,
    knownWords: (pair, text) => knownWords(routeFor(pair.source, pair.target), text),
    async unknownWords(pair, text) {
      const words = await analyse(routeFor(pair.source, pair.target), text);
      return words?.filter((word) => !word.known).map((word) => word.surface);
    },
    fingerprint(pair) {
      const route = routeFor(pair.source, pair.target);
      const legs = route.modes.map((mode) => `${mode.name}@${mode.package.split(' ')[1]}`).join('+');
      return `apertium/${apertiumVersion}/${route.modes.length > 1 ? `pivot:${legs}` : legs}`;
    },
    supportsFormality: () => false,
    supportsTerms(pair) {
      const route = byPair.get(`${pair.source.toLowerCase()}>${canonicalTarget(pair.target)}`);
      return route !== undefined && targetAnalyser(route.modes.at(-1)!) !== undefined;
    },
    async translate(input) {
      if (closed) throw new EngineError('apertium: engine is closed', 'apertium');
      const route = routeFor(input.source, input.target);
      if (input.terms && input.terms.entries.length > 0) {
        const index = await termIndex(route, input.terms);
        return Promise.all(input.texts.map((text) => translateWithTerms(text, input, route, index)));
      }
      return Promise.all(input.texts.map((text) => translateLabel(text, input, route)));
    },
    status: () => [...processes.values()].map((pipeline) => pipeline.status()),
    async close() {
      closed = true;
      for (const pipeline of processes.values()) pipeline.close();
    },
  };
}

/** `EN-us` → `en-US`: the form the pair table uses. */
function canonicalTarget(code: string): string {
  const [base = '', region] = code.split('-');
  return region ? `${base.toLowerCase()}-${region.toUpperCase()}` : base.toLowerCase();
}
