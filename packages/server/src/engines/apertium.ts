/**
 * The `apertium` engine: real offline machine translation with Debian's Apertium packages.
 *
 * One long-lived null-flush pipeline per mode (`apertium-process.ts`), inline codes protected as blanks
 * (`apertium-format.ts`), pairs discovered from the installed modes with pivots through Spanish
 * (`apertium-pairs.ts`). Every failure is an `EngineError`; a dead pipeline is restarted on the next call.
 */

import { decodeSegment, encodeSegment, stripMarks } from './apertium-format.js';
import { type ApertiumRoute, discoverRoutes } from './apertium-pairs.js';
import { ApertiumProcess, type ApertiumProcessStatus } from './apertium-process.js';
import type { EngineInput, LanguagePair, TranslationEngine } from './engine.js';
import { EngineError } from './engine.js';

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

  const translateOne = async (text: string, input: EngineInput, route: ApertiumRoute): Promise<string> => {
    const segment = encodeSegment(text, input.markup);
    if (!segment.hasText && segment.codes.every((code) => code.kind !== 'literal')) return text;
    let stream = segment.stream;
    for (const [leg, mode] of route.modes.entries()) {
      stream = await processFor(mode).translate(leg === 0 ? stream : stripMarks(stream), input.signal);
    }
    return decodeSegment(stream, segment);
  };

  return {
    name: 'apertium',
    pairs: () => pairs,
    fingerprint(pair) {
      const route = routeFor(pair.source, pair.target);
      const legs = route.modes.map((mode) => `${mode.name}@${mode.package.split(' ')[1]}`).join('+');
      return `apertium/${apertiumVersion}/${route.modes.length > 1 ? `pivot:${legs}` : legs}`;
    },
    supportsFormality: () => false,
    async translate(input) {
      if (closed) throw new EngineError('apertium: engine is closed', 'apertium');
      const route = routeFor(input.source, input.target);
      return Promise.all(input.texts.map((text) => translateOne(text, input, route)));
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
