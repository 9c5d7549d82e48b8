/**
 * A translation run: lock → cache → batcher → translator → code verification (one retry with the
 * second encoding) → cache and lock. Nothing is silently dropped: a segment that cannot be translated
 * keeps its source and is listed in the report with its file and position.
 */
import { type BatchItem, createBatcher } from './batcher.js';
import { type CacheKeyParts, cacheKey } from './cache/key.js';
import type { TranslationCache } from './cache/translation-cache.js';
import { flattenPairs, inlinePlainText, restorePairs, verifyCodes } from './codes/inline.js';
import type { TranslationLock } from './lock.js';
import type { QaCheck, RunEstimate, RunEvent, RunFailure, RunReport } from './report.js';
import type { Segment } from './segment.js';
import type { TranslationRequestOptions, Translator } from './translator.js';

/** A segment plus the file it came from (for reports). */
export interface RunSegment extends Segment {
  readonly file?: string;
}

export interface TranslationRunOptions {
  /** Required to translate; `estimate` works without. */
  readonly translator?: Translator;
  readonly sourceLang?: string;
  readonly targetLangs: readonly string[];
  /** Sent with every request (formality, glossaryId, styleId, translationMemoryId, modelType, ...). */
  readonly requestOptions?: Omit<TranslationRequestOptions, 'targetLang' | 'sourceLang' | 'context'>;
  /** What the request ids stand for, for the cache key (glossary content hash, memory/style versions, engine). */
  readonly cacheKeyParts?: Pick<CacheKeyParts, 'glossaryHash' | 'memory' | 'styleList' | 'engineFingerprint'>;
  readonly cache?: TranslationCache;
  readonly lock?: TranslationLock;
  readonly concurrency?: number;
  readonly marginBytes?: number;
  readonly qa?: QaCheck;
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

interface Pending {
  readonly locale: string;
  readonly segment: RunSegment;
  readonly cacheKey: string;
  readonly item: BatchItem;
}

export function createTranslationRun(options: TranslationRunOptions) {
  if (!Array.isArray(options.targetLangs) || options.targetLangs.length === 0) {
    throw new TypeError(
      'createTranslationRun: expected `targetLangs` to be a non-empty array of language codes',
    );
  }
  const emit = (event: RunEvent) => options.onEvent?.(event);

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
    let humanEdits = 0;
    const pending: Pending[] = [];
    for (const locale of options.targetLangs) {
      const out = targets.get(locale)!;
      const existing = input.existingTargets?.get(locale);
      for (const segment of input.segments) {
        const target = existing?.get(segment.key);
        const state = options.lock?.state(locale, segment.key, segment.source, target) ?? 'missing';
        if (state === 'current' || state === 'human-edit' || state === 'untracked') {
          out.set(segment.key, target!);
          if (state === 'current') unchanged++;
          else humanEdits++;
        } else if (!/[\p{L}\p{N}]/u.test(inlinePlainText(segment.source))) {
          out.set(segment.key, segment.source); // nothing to translate: codes, digits-free punctuation
          unchanged++;
        } else {
          const item = { text: segment.source, options: requestFor(segment, locale) };
          const key = cacheKey({
            ...options.cacheKeyParts,
            source: segment.source,
            ...(options.sourceLang !== undefined && { sourceLang: options.sourceLang }),
            targetLang: locale,
            ...pickKeyOptions(item.options),
          });
          pending.push({ locale, segment, cacheKey: key, item });
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
        cacheHits++;
      }
    }
    emit({ type: 'cache', hits: cacheHits, misses: misses.length });
    return { targets, unchanged, humanEdits, cacheHits, misses };
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
    const first = await batcher.translate(prepared.misses.map((p) => p.item));

    const failures: RunFailure[] = [];
    const good = new Map<Pending, string>();
    const retry: { p: Pending; reason: string }[] = [];
    prepared.misses.forEach((p, i) => {
      const r = first.results[i]!;
      if ('error' in r) {
        failures.push(failureOf(p, r.error.message));
        return;
      }
      const problem = verifyCodes(p.segment.source, r.text);
      if (problem === undefined) good.set(p, r.text);
      else retry.push({ p, reason: problem });
    });

    let second = { requests: [] as readonly { bytes: number }[], billedCharacters: 0 };
    if (retry.length > 0) {
      const out = await batcher.translate(
        retry.map(({ p }) => ({ ...p.item, text: flattenPairs(p.segment.source) })),
      );
      second = out;
      retry.forEach(({ p, reason }, i) => {
        const r = out.results[i]!;
        if ('error' in r) {
          failures.push(failureOf(p, r.error.message));
          return;
        }
        const restored = restorePairs(r.text);
        const problem = 'error' in restored ? restored.error : verifyCodes(p.segment.source, restored.target);
        if (problem === undefined && 'target' in restored) good.set(p, restored.target);
        else failures.push(failureOf(p, `${reason}; after the second encoding: ${problem}`));
      });
    }

    const sources = new Map(input.segments.map((s) => [s.key, s]));
    const failed = new Set<string>();
    for (const f of failures) {
      prepared.targets.get(f.locale)!.set(f.key, sources.get(f.key)!.source);
      failed.add(`${f.locale}\n${f.key}`);
      emit({ type: 'failure', failure: f });
    }
    const toCache = new Map<string, string>();
    for (const [p, text] of good) {
      prepared.targets.get(p.locale)!.set(p.segment.key, text);
      toCache.set(p.cacheKey, text);
    }
    await options.cache?.setMany(toCache);
    if (options.lock) {
      // Machine output written in this run (translated or from the cache) goes into the lock.
      for (const [locale, byKey] of prepared.targets) {
        const existing = input.existingTargets?.get(locale);
        for (const segment of input.segments) {
          const target = byKey.get(segment.key);
          if (target === undefined || failed.has(`${locale}\n${segment.key}`)) continue;
          const state = options.lock.state(locale, segment.key, segment.source, existing?.get(segment.key));
          if (state === 'missing' || state === 'stale')
            options.lock.record(locale, segment.key, segment.source, target);
        }
      }
      await options.lock.save();
    }
    const qaItems = !options.qa
      ? []
      : [...good].map(([p, target]) => ({
          locale: p.locale,
          key: p.segment.key,
          source: p.segment.source,
          target,
        }));
    const qa = options.qa && qaItems.length > 0 ? await options.qa(qaItems) : [];
    const requests = [...first.requests, ...second.requests];
    const report: RunReport = {
      segments: input.segments.length * options.targetLangs.length,
      unchanged: prepared.unchanged,
      humanEdits: prepared.humanEdits,
      cacheHits: prepared.cacheHits,
      translated: good.size,
      retried: retry.length,
      requests: requests.length,
      requestBytes: requests.reduce((sum, r) => sum + r.bytes, 0),
      billedCharacters: first.billedCharacters + second.billedCharacters,
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

function failureOf(p: Pending, reason: string): RunFailure {
  return {
    locale: p.locale,
    key: p.segment.key,
    ...(p.segment.file !== undefined && { file: p.segment.file }),
    ...(p.segment.position !== undefined && { position: p.segment.position }),
    reason,
  };
}

function pickKeyOptions(o: TranslationRequestOptions): Partial<CacheKeyParts> {
  return {
    ...(o.formality !== undefined && { formality: o.formality }),
    ...(o.customInstructions !== undefined && { customInstructions: o.customInstructions }),
    ...(o.context !== undefined && { context: o.context }),
    ...(o.modelType !== undefined && { modelType: o.modelType }),
    tagHandlingVersion: o.tagHandlingVersion ?? 'v1',
  };
}
