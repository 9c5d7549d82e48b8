/**
 * The batcher: cache misses in, as few requests as the 128 KiB body limit allows out. Texts are
 * deduplicated per group of identical request options, packed in order by their serialized JSON size,
 * split at sentence boundaries when one text alone is too large, and sent with a concurrency limit.
 */
import { MAX_TRANSLATE_REQUEST_BYTES } from '@glossa/protocol';
import { inlinePlainText } from './codes/inline.js';
import { splitSource, trimParts } from './split.js';
import { optionsKey, type TranslationRequestOptions, type Translator, wireOptions } from './translator.js';

export interface BatchItem {
  readonly text: string;
  readonly options: TranslationRequestOptions;
}

export interface BatcherOptions {
  readonly translator?: Translator;
  /** Bytes kept free below the 128 KiB body limit. Default `DEFAULT_MARGIN_BYTES`. */
  readonly marginBytes?: number;
  /** Requests in flight at once. Default 4. */
  readonly concurrency?: number;
  /** Called when a request finishes (or fails). */
  readonly onRequest?: (request: RequestRecord) => void;
}

export interface RequestRecord {
  readonly texts: number;
  /** Size of the serialized JSON body. */
  readonly bytes: number;
  readonly billedCharacters: number;
  readonly error?: Error;
}

export type BatchResult = { readonly text: string } | { readonly error: Error };

export interface BatchOutcome {
  /** Same order as the items. */
  readonly results: readonly BatchResult[];
  readonly requests: readonly RequestRecord[];
  readonly billedCharacters: number;
}

export interface BatchPlan {
  /** The bodies that would be sent, by size. */
  readonly requests: readonly { readonly texts: number; readonly bytes: number }[];
  /** Code points of the unique texts without codes: what the service will bill. */
  readonly billedCharacters: number;
}

interface Unit {
  readonly text: string;
  readonly bytes: number;
}

interface Group {
  readonly options: TranslationRequestOptions;
  readonly requests: Unit[][];
  /** Body size of the last request so far. */
  lastBytes: number;
  /** Size of the body without texts. */
  readonly base: number;
  /** Units already queued (two texts can share one after trimming or splitting). */
  readonly queued: Set<string>;
  /** Per unique text: the parts (units) it was cut into, with their whitespace. */
  readonly texts: Map<string, { lead: string; unit: string; trail: string }[] | Error>;
}

/**
 * Bodies are sized exactly as the client serializes them (`JSON.stringify` of the wire body), so the
 * margin only has to absorb a client that formats differently: 256 bytes.
 */
export const DEFAULT_MARGIN_BYTES = 256;

const STOPPING_STATUSES = new Set([403, 456]);

/** `optionsKey` per options object: runs share one object per locale and context. */
const keys = new WeakMap<TranslationRequestOptions, string>();
function keyOf(options: TranslationRequestOptions): string {
  let key = keys.get(options);
  if (key === undefined) {
    key = optionsKey(options);
    keys.set(options, key);
  }
  return key;
}

export function createBatcher(options: BatcherOptions = {}) {
  const margin = options.marginBytes ?? DEFAULT_MARGIN_BYTES;
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`Expected \`concurrency\` to be a positive integer, got ${concurrency}`);
  }
  const limit = MAX_TRANSLATE_REQUEST_BYTES - margin;

  function group(items: readonly BatchItem[]): Map<string, Group> {
    const groups = new Map<string, Group>();
    for (const item of items) {
      const key = keyOf(item.options);
      let g = groups.get(key);
      if (!g) {
        const sent = { ...item.options, showBilledCharacters: true };
        const base = Buffer.byteLength(JSON.stringify({ ...wireOptions(sent), text: [] }));
        g = { options: sent, requests: [], texts: new Map(), lastBytes: 0, base, queued: new Set() };
        groups.set(key, g);
      }
      if (g.texts.has(item.text)) continue;
      const base = g.base;
      const { lead, core, trail } = trimParts(item.text);
      let parts: string[];
      try {
        parts = core === '' ? [] : splitSource(core, limit - base);
      } catch (error) {
        g.texts.set(item.text, error as Error);
        continue;
      }
      const pieces = parts.map((part, i) => {
        const t = trimParts(part);
        return {
          lead: (i === 0 ? lead : '') + t.lead,
          unit: t.core,
          trail: t.trail + (i === parts.length - 1 ? trail : ''),
        };
      });
      if (pieces.length === 0) pieces.push({ lead, unit: '', trail });
      g.texts.set(item.text, pieces);
      for (const piece of pieces) {
        if (piece.unit === '' || g.queued.has(piece.unit)) continue;
        g.queued.add(piece.unit);
        const bytes = Buffer.byteLength(JSON.stringify(piece.unit));
        const last = g.requests.at(-1);
        if (last && g.lastBytes + 1 + bytes <= limit) {
          last.push({ text: piece.unit, bytes });
          g.lastBytes += 1 + bytes;
        } else {
          g.requests.push([{ text: piece.unit, bytes }]);
          g.lastBytes = base + bytes;
        }
      }
    }
    return groups;
  }

  function bodyBytes(g: Group, units: readonly Unit[]): number {
    return Buffer.byteLength(JSON.stringify({ ...wireOptions(g.options), text: units.map((u) => u.text) }));
  }

  /** Dry run: what `translate` would send, without calling the service. */
  function plan(items: readonly BatchItem[]): BatchPlan {
    const requests: { texts: number; bytes: number }[] = [];
    let billedCharacters = 0;
    for (const g of group(items).values()) {
      for (const units of g.requests) {
        requests.push({ texts: units.length, bytes: bodyBytes(g, units) });
        for (const u of units) billedCharacters += [...inlinePlainText(u.text)].length;
      }
    }
    return { requests, billedCharacters };
  }

  async function translate(items: readonly BatchItem[]): Promise<BatchOutcome> {
    const translator = options.translator;
    if (!translator)
      throw new TypeError('createBatcher: `translator` is required to translate (plan() works without)');
    const byKey = group(items);
    const groups = [...byKey.values()];
    const jobs = groups.flatMap((g) => g.requests.map((units) => ({ g, units })));
    const translated = new Map<Group, Map<string, string | Error>>(groups.map((g) => [g, new Map()]));
    const requests: RequestRecord[] = [];
    let stop: Error | undefined;
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const { g, units } = jobs[next++]!;
        const out = translated.get(g)!;
        const bytes = bodyBytes(g, units);
        if (stop) {
          for (const u of units) out.set(u.text, stop);
          continue;
        }
        let record: RequestRecord;
        try {
          const texts = units.map((u) => u.text);
          const result = await translator.translateText(texts, g.options);
          if (result.length !== texts.length)
            throw new Error(`The service returned ${result.length} translations for ${texts.length} texts`);
          let billed = 0;
          result.forEach((r, i) => {
            out.set(texts[i]!, r.text);
            billed += r.billed_characters ?? 0;
          });
          record = { texts: units.length, bytes, billedCharacters: billed };
        } catch (error) {
          const err = error instanceof Error ? error : new Error(String(error));
          const status = (err as { status?: number }).status ?? 0;
          if (status === 413 && units.length > 1) {
            // The service counts the body differently: send the halves instead.
            const half = Math.ceil(units.length / 2);
            jobs.push({ g, units: units.slice(0, half) }, { g, units: units.slice(half) });
          } else {
            for (const u of units) out.set(u.text, err);
          }
          if (STOPPING_STATUSES.has(status)) stop = err;
          record = { texts: units.length, bytes, billedCharacters: 0, error: err };
        }
        requests.push(record);
        options.onRequest?.(record);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));

    const results = items.map((item): BatchResult => {
      const g = byKey.get(keyOf(item.options))!;
      const pieces = g.texts.get(item.text)!;
      if (pieces instanceof Error) return { error: pieces };
      const out = translated.get(g)!;
      let text = '';
      for (const piece of pieces) {
        const t = piece.unit === '' ? '' : out.get(piece.unit)!;
        if (t instanceof Error) return { error: t };
        text += piece.lead + t + piece.trail;
      }
      return { text };
    });
    return { results, requests, billedCharacters: requests.reduce((sum, r) => sum + r.billedCharacters, 0) };
  }

  return { translate, plan };
}

export type Batcher = ReturnType<typeof createBatcher>;
