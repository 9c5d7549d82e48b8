/**
 * One wave of a run: send a group of cache misses, verify the returned codes, retry failures once with
 * the second encoding. Waves are cut at request boundaries so a long run stores its progress (cache and
 * lock) as it goes and holds only one wave's intermediate data at a time.
 */
import type { Batcher, BatchItem, RequestRecord } from './batcher.js';
import { followCase } from './codes/case.js';
import { flattenPairs, restorePairs, verifyCodes } from './codes/inline.js';
import { restoreTerms } from './codes/keep.js';
import type { RunFailure } from './report.js';
import type { RunSegment } from './segment.js';
import { optionsKey } from './translator.js';

export interface Pending {
  readonly locale: string;
  readonly segment: RunSegment;
  readonly cacheKey: string;
  /** What is sent: the segment's source, with kept terms as codes (`keptTerms`). */
  readonly item: BatchItem;
  /** The kept terms the item's codes stand for (`protectTerms`), when any occur. */
  readonly keptTerms?: readonly string[];
}

/** An answer checked against its segment: kept terms back, codes verified; the target or the problem. */
function check(p: Pending, text: string): { target: string } | { error: string } {
  const restored = p.keptTerms ? restoreTerms(text, p.keptTerms) : { target: text };
  if ('error' in restored) return restored;
  const problem = verifyCodes(p.segment.source, restored.target);
  return problem === undefined ? restored : { error: problem };
}

export interface WaveOutcome {
  readonly good: Map<Pending, string>;
  readonly failures: RunFailure[];
  readonly retried: number;
  readonly requests: readonly RequestRecord[];
  readonly billedCharacters: number;
}

/**
 * Cuts misses into waves of about `waveBytes` of unique JSON text each, keeping every duplicate of a
 * text (same options) in the wave of its first occurrence, so deduplication spans the whole run.
 */
export function cutWaves(misses: readonly Pending[], waveBytes: number): Pending[][] {
  const waves: Pending[][] = [];
  const waveOf = new Map<string, number>();
  let bytes = Number.POSITIVE_INFINITY;
  const keys = new Map<object, string>();
  for (const p of misses) {
    let optionsId = keys.get(p.item.options);
    if (optionsId === undefined) {
      optionsId = optionsKey(p.item.options);
      keys.set(p.item.options, optionsId);
    }
    const id = `${optionsId}\n${p.item.text}`;
    const known = waveOf.get(id);
    if (known !== undefined) {
      waves[known]!.push(p);
      continue;
    }
    const size = Buffer.byteLength(JSON.stringify(p.item.text)) + 1;
    if (bytes + size > waveBytes && bytes > 0) {
      waves.push([]);
      bytes = 0;
    }
    bytes += size;
    waveOf.set(id, waves.length - 1);
    waves.at(-1)!.push(p);
  }
  return waves;
}

export function failureOf(p: Pick<Pending, 'locale' | 'segment'>, reason: string): RunFailure {
  return {
    locale: p.locale,
    key: p.segment.key,
    ...(p.segment.file !== undefined && { file: p.segment.file }),
    ...(p.segment.position !== undefined && { position: p.segment.position }),
    reason,
  };
}

export async function translateWave(batcher: Batcher, wave: readonly Pending[]): Promise<WaveOutcome> {
  const first = await batcher.translate(wave.map((p) => p.item));
  const failures: RunFailure[] = [];
  const good = new Map<Pending, string>();
  const retry: { p: Pending; reason: string }[] = [];
  wave.forEach((p, i) => {
    const r = first.results[i]!;
    if ('error' in r) {
      failures.push(failureOf(p, r.error.message));
      return;
    }
    const checked = check(p, r.text);
    if ('target' in checked) good.set(p, followCase(p.segment.source, checked.target, p.locale));
    else retry.push({ p, reason: checked.error });
  });
  if (retry.length === 0) {
    return { good, failures, retried: 0, requests: first.requests, billedCharacters: first.billedCharacters };
  }
  const second = await batcher.translate(
    retry.map(({ p }) => ({ ...p.item, text: flattenPairs(p.item.text) })),
  );
  retry.forEach(({ p, reason }, i) => {
    const r = second.results[i]!;
    if ('error' in r) {
      failures.push(failureOf(p, r.error.message));
      return;
    }
    const restored = restorePairs(r.text);
    const checked = 'error' in restored ? restored : check(p, restored.target);
    if ('target' in checked) good.set(p, followCase(p.segment.source, checked.target, p.locale));
    else failures.push(failureOf(p, `${reason}; after the second encoding: ${checked.error}`));
  });
  return {
    good,
    failures,
    retried: retry.length,
    requests: [...first.requests, ...second.requests],
    billedCharacters: first.billedCharacters + second.billedCharacters,
  };
}
