/**
 * A translation run: lock → cache → batcher → translator → code verification (one retry with the
 * second encoding) → cache and lock. Nothing is silently dropped: a segment that cannot be translated
 * keeps its source and is listed in the report with its file and position.
 */
import { MAX_TRANSLATE_REQUEST_BYTES } from '@glossa/protocol';
import { createBatcher } from './batcher.js';
import { type CacheKeyParts, cacheKeyer } from './cache/key.js';
import type { TranslationCache } from './cache/translation-cache.js';
import { keptTermsMatcher, protectTerms } from './codes/keep.js';
import type { TranslationLock } from './lock.js';
import type { QaCheck, QaFinding, RunEstimate, RunEvent, RunFailure, RunReport } from './report.js';
import { checkSources, echoedSource, hasWords, overLength } from './run-checks.js';
import { cutWaves, failureOf, type Pending, translateWave } from './run-wave.js';
import type { RunSegment } from './segment.js';
import type { TranslationRequestOptions, Translator } from './translator.js';

export interface TranslationRunOptions {
  /** Required to translate; `estimate` works without. */
  readonly translator?: Translator;
  readonly sourceLang?: string;
  readonly targetLangs: readonly string[];
  /** Sent with every request (formality, glossaryId, styleId, translationMemoryId, modelType, ...). */
  readonly requestOptions?: Omit<TranslationRequestOptions, 'targetLang' | 'sourceLang' | 'context'>;
  /** What the request ids stand for, for the cache key (glossary content hash, memory/style versions, engine). */
  readonly cacheKeyParts?: Pick<CacheKeyParts, 'glossaryHash' | 'memory' | 'styleList' | 'engineFingerprint'>;
  /**
   * Terms never translated, in any locale (pseudo included): brand and product names, shortcuts. Whole
   * words, case-sensitive; each is sent as a code and comes back as it is.
   */
  readonly doNotTranslate?: readonly string[];
  readonly cache?: TranslationCache;
  readonly lock?: TranslationLock;
  readonly concurrency?: number;
  readonly marginBytes?: number;
  /**
   * Unique JSON bytes sent per wave; after each wave the cache and the lock are stored, so a killed run
   * resends at most one wave. Default `DEFAULT_WAVE_BYTES` (32 full requests).
   */
  readonly waveBytes?: number;
  readonly qa?: QaCheck;
  /**
   * After each wave, with its translated targets: those the service answered in the source language
   * because every engine failed them (the embedded server's `takeUntranslated()`), by `locale\nkey`, with
   * what went wrong. They are failures: reported with their position, not cached, retried next run.
   */
  readonly keptSource?: (
    items: readonly { locale: string; key: string; source: string; target: string }[],
  ) => ReadonlyMap<string, string>;
  readonly onEvent?: (event: RunEvent) => void;
}

export interface RunInput {
  readonly segments: readonly RunSegment[];
  /** Targets already in the project, per locale and key, in segment form (with codes). */
  readonly existingTargets?: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

export interface RunResult {
  /** Per locale, per key: the target to write (translated, cached, current or a human edit). */
  readonly targets: Map<string, Map<string, string>>;
  readonly report: RunReport;
}

/** 32 requests' worth of text per wave: at most one partly filled request per wave. */
export const DEFAULT_WAVE_BYTES = 32 * MAX_TRANSLATE_REQUEST_BYTES;

export function createTranslationRun(options: TranslationRunOptions) {
  if (!Array.isArray(options.targetLangs) || options.targetLangs.length === 0) {
    throw new TypeError(
      'createTranslationRun: expected `targetLangs` to be a non-empty array of language codes',
    );
  }
  const emit = (event: RunEvent) => options.onEvent?.(event);
  const keepMatcher = keptTermsMatcher(options.doNotTranslate);

  // One options object per locale and context, shared by all its segments (100,000 segments, few contexts).
  const requestCache = new Map<string, TranslationRequestOptions>();
  function requestFor(segment: RunSegment, locale: string): TranslationRequestOptions {
    const id = `${locale}\n${segment.context ?? ''}\n${segment.context === undefined}`;
    let request = requestCache.get(id);
    if (!request) {
      request = buildRequest(segment, locale);
      requestCache.set(id, request);
    }
    return request;
  }

  /** One keyer per request options object (locale and context): the parts besides the source. */
  const keyers = new Map<TranslationRequestOptions, (source: string) => string>();
  function keyerFor(request: TranslationRequestOptions): (source: string) => string {
    let keyer = keyers.get(request);
    if (!keyer) {
      keyer = cacheKeyer({
        ...options.cacheKeyParts,
        ...(options.sourceLang !== undefined && { sourceLang: options.sourceLang }),
        targetLang: request.targetLang,
        ...pickKeyOptions(request, options.cacheKeyParts),
      });
      keyers.set(request, keyer);
    }
    return keyer;
  }

  function buildRequest(segment: RunSegment, locale: string): TranslationRequestOptions {
    return {
      ...options.requestOptions,
      targetLang: locale,
      ...(options.sourceLang !== undefined && { sourceLang: options.sourceLang }),
      ...(segment.context !== undefined && { context: segment.context }),
      tagHandling: 'xml',
      ignoreTags: ['x'],
    };
  }

  /** Sorts every segment × locale into kept targets and pending work, then looks the pending up in the cache. */
  async function prepare(input: RunInput) {
    const targets = new Map<string, Map<string, string>>(options.targetLangs.map((l) => [l, new Map()]));
    let unchanged = 0;
    /** Machine output this run writes without a request (cache hits, texts without words), for the lock. */
    const resolved: [string, RunSegment, string][] = [];
    let humanEdits = 0;
    const pending: Pending[] = [];
    const invalid = checkSources(input.segments);
    const failures: RunFailure[] = [];
    // What is sent for each segment, kept terms as codes: the same for every locale, so made once.
    const keptTerms =
      keepMatcher && new Map(input.segments.map((s) => [s, protectTerms(s.source, keepMatcher)]));
    for (const locale of options.targetLangs) {
      const out = targets.get(locale)!;
      const existing = input.existingTargets?.get(locale);
      for (const segment of input.segments) {
        const problem = invalid.get(segment);
        if (problem !== undefined) {
          // Bad content from an adapter: reported with its position, kept as it is; the rest goes on.
          out.set(segment.key, existing?.get(segment.key) ?? segment.source);
          failures.push(failureOf({ locale, segment }, problem));
          continue;
        }
        const target = existing?.get(segment.key);
        // Without a lock, an existing target cannot be told from a human edit: it is kept.
        const state = options.lock
          ? options.lock.state(locale, segment.key, segment.source, target)
          : target === undefined
            ? 'missing'
            : 'untracked';
        // A target equal to its source that no lock entry vouches for was left in the source language by an
        // earlier failure (failures are never recorded in the lock): it is missing, not a person's edit.
        const leftInSource = state === 'untracked' && target === segment.source;
        if (!leftInSource && (state === 'current' || state === 'human-edit' || state === 'untracked')) {
          out.set(segment.key, target!);
          if (state === 'current') unchanged++;
          else humanEdits++;
        } else {
          const kept = keptTerms?.get(segment);
          const text = kept?.text ?? segment.source;
          if (!hasWords(text)) {
            // Nothing to translate: only codes, kept terms, punctuation, spaces.
            out.set(segment.key, segment.source);
            resolved.push([locale, segment, segment.source]);
            unchanged++;
            continue;
          }
          const item = { text, options: requestFor(segment, locale) };
          // Keyed by what is sent, so adding or removing a kept term re-translates exactly its segments.
          pending.push({
            locale,
            segment,
            cacheKey: keyerFor(item.options)(text),
            item,
            ...(kept !== undefined && kept.terms.length > 0 && { keptTerms: kept.terms }),
          });
        }
      }
    }
    const { found } = options.cache
      ? await options.cache.getMany(pending.map((p) => p.cacheKey))
      : { found: new Map<string, string>() };
    const misses: Pending[] = [];
    let cacheHits = 0;
    for (const p of pending) {
      const hit = found.get(p.cacheKey);
      if (hit === undefined) misses.push(p);
      else {
        targets.get(p.locale)!.set(p.segment.key, hit);
        resolved.push([p.locale, p.segment, hit]);
        cacheHits++;
      }
    }
    emit({ type: 'cache', hits: cacheHits, misses: misses.length });
    return { targets, unchanged, humanEdits, cacheHits, misses, resolved, failures };
  }

  /** Dry run: what `translate` would send and bill, without calling the service. */
  async function estimate(input: RunInput): Promise<RunEstimate> {
    const prepared = await prepare(input);
    const plan = createBatcher(batcherOptions()).plan(prepared.misses.map((p) => p.item));
    return {
      segments: input.segments.length * options.targetLangs.length,
      unchanged: prepared.unchanged,
      humanEdits: prepared.humanEdits,
      cacheHits: prepared.cacheHits,
      requests: plan.requests.length,
      requestBytes: plan.requests.reduce((sum, r) => sum + r.bytes, 0),
      billedCharacters: plan.billedCharacters,
    };
  }

  function batcherOptions() {
    let done = 0;
    return {
      ...(options.translator && { translator: options.translator }),
      ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
      ...(options.marginBytes !== undefined && { marginBytes: options.marginBytes }),
      onRequest: (r: { texts: number; bytes: number; billedCharacters: number; error?: Error }) =>
        emit({ type: 'request', done: ++done, ...r }),
    };
  }

  async function translate(input: RunInput): Promise<RunResult> {
    const started = performance.now();
    emit({ type: 'start', segments: input.segments.length, locales: options.targetLangs });
    const prepared = await prepare(input);
    const batcher = createBatcher(batcherOptions());
    const sources = new Map(input.segments.map((s) => [s.key, s]));
    const lock = options.lock;
    // Every target `prepare` did not keep (missing, stale, or left in the source language by an earlier
    // failure) is replaced by machine output, and every machine output written is recorded: a target the
    // lock does not vouch for would read as a person's edit and never be updated again.
    const recordMachineOutput = (locale: string, segment: RunSegment, target: string) =>
      lock!.record(locale, segment.key, segment.source, target);
    if (lock) {
      for (const [locale, segment, target] of prepared.resolved) recordMachineOutput(locale, segment, target);
      prepared.resolved.length = 0;
      await lock.save();
    }

    const failures: RunFailure[] = [...prepared.failures];
    for (const f of prepared.failures) emit({ type: 'failure', failure: f });
    const lengthFindings: Omit<QaFinding, 'file'>[] = [];
    const requests: { bytes: number }[] = [];
    const qaFindings: Omit<QaFinding, 'file'>[] = [];
    let translated = 0;
    let retried = 0;
    let billedCharacters = 0;
    const waveBytes = options.waveBytes ?? DEFAULT_WAVE_BYTES;
    const waves = cutWaves(prepared.misses, waveBytes);
    prepared.misses.length = 0; // each wave's work is released once the wave is done
    let done = 0;
    for (let index = 0; index < waves.length; index++) {
      const wave = waves[index]!;
      waves[index] = [];
      const out = await translateWave(batcher, wave);
      if (options.qa && out.good.size > 0) {
        // A critical QA finding (a code or placeholder moved out of its element, a broken expression) is a
        // failure like a lost code: kept in the source language, reported, never cached nor emitted.
        const items = [...out.good].map(([p, text]) => ({
          locale: p.locale,
          key: p.segment.key,
          source: p.segment.source,
          target: text,
        }));
        const findings = await options.qa(items);
        const critical = new Map<string, string>();
        for (const f of findings) {
          if (f.severity !== 'critical') qaFindings.push(f);
          else if (!critical.has(`${f.locale}\n${f.key}`)) critical.set(`${f.locale}\n${f.key}`, f.message);
        }
        for (const [p] of [...out.good]) {
          const message = critical.get(`${p.locale}\n${p.segment.key}`);
          if (message === undefined) continue;
          out.good.delete(p);
          out.failures.push(failureOf(p, `QA critical: ${message}`));
        }
      }
      if (options.keptSource && out.good.size > 0) {
        const kept = options.keptSource(
          [...out.good].map(([p, text]) => ({
            locale: p.locale,
            key: p.segment.key,
            source: p.segment.source,
            target: text,
          })),
        );
        for (const [p] of [...out.good]) {
          const reason = kept.get(`${p.locale}\n${p.segment.key}`);
          if (reason === undefined) continue;
          out.good.delete(p);
          out.failures.push(failureOf(p, reason));
        }
      }
      // A target equal to its source, where that cannot be right, is untranslated: a failure, not a success.
      for (const [p, text] of [...out.good]) {
        const echoed = echoedSource(p.segment.source, text, options.sourceLang, p.locale);
        if (echoed === undefined) continue;
        out.good.delete(p);
        out.failures.push(failureOf(p, echoed));
      }
      for (const f of out.failures) {
        prepared.targets.get(f.locale)!.set(f.key, sources.get(f.key)!.source);
        // Recorded as a failure: retried next time, and its source copy never read as a person's edit.
        lock?.recordFailure(f.locale, f.key, sources.get(f.key)!.source);
        emit({ type: 'failure', failure: f });
      }
      const toCache = new Map<string, string>();
      for (const [p, text] of out.good) {
        prepared.targets.get(p.locale)!.set(p.segment.key, text);
        toCache.set(p.cacheKey, text);
        if (lock) recordMachineOutput(p.locale, p.segment, text);
        const over = overLength(p.segment, text);
        if (over)
          lengthFindings.push({ locale: p.locale, key: p.segment.key, severity: 'major', message: over });
      }
      await options.cache?.setMany(toCache);
      await lock?.save();
      failures.push(...out.failures);
      requests.push(...out.requests);
      translated += out.good.size;
      retried += out.retried;
      billedCharacters += out.billedCharacters;
      done += out.good.size + out.failures.length;
      emit({ type: 'wave', done: index + 1, total: waves.length, translated, sent: done });
    }
    const qa = [...lengthFindings, ...qaFindings];
    const report: RunReport = {
      segments: input.segments.length * options.targetLangs.length,
      unchanged: prepared.unchanged,
      humanEdits: prepared.humanEdits,
      cacheHits: prepared.cacheHits,
      translated,
      retried,
      requests: requests.length,
      requestBytes: requests.reduce((sum, r) => sum + r.bytes, 0),
      billedCharacters,
      failures,
      qa: qa.map((f) => {
        const file = sources.get(f.key)?.file;
        return file === undefined ? f : { ...f, file };
      }),
      durationMs: Math.round(performance.now() - started),
    };
    emit({ type: 'done', report });
    return { targets: prepared.targets, report };
  }

  return { translate, estimate };
}

export type TranslationRun = ReturnType<typeof createTranslationRun>;

/** One call: translate `segments` into `targetLangs` with the given options. */
export function translateSegments(
  segments: readonly RunSegment[],
  options: TranslationRunOptions,
): Promise<RunResult> {
  return createTranslationRun(options).translate({ segments });
}

/**
 * The request options that change the output, for the cache key. Resource ids stand in for content
 * hashes and versions the caller did not give (`cacheKeyParts`), so a glossary or memory is never ignored.
 */
function pickKeyOptions(
  o: TranslationRequestOptions,
  given: TranslationRunOptions['cacheKeyParts'] = {},
): Partial<CacheKeyParts> {
  const threshold = o.translationMemoryThreshold;
  const memory =
    given.memory ??
    (o.translationMemoryId !== undefined ? { id: o.translationMemoryId, version: 'unknown' } : undefined);
  return {
    ...(given.glossaryHash === undefined &&
      o.glossaryId !== undefined && { glossaryHash: `id:${o.glossaryId}` }),
    ...(memory && {
      memory: threshold === undefined ? memory : { ...memory, version: `${memory.version}@${threshold}` },
    }),
    ...(given.styleList === undefined &&
      o.styleId !== undefined && { styleList: { id: o.styleId, version: 'unknown' } }),
    ...(o.formality !== undefined && { formality: o.formality }),
    ...(o.customInstructions !== undefined && { customInstructions: o.customInstructions }),
    ...(o.context !== undefined && { context: o.context }),
    ...(o.modelType !== undefined && { modelType: o.modelType }),
    tagHandlingVersion: o.tagHandlingVersion ?? 'v1',
  };
}
