/**
 * The lock never loses track, at the level of core's run: random sequences of source edits (changed,
 * added and removed keys), locale changes, human edits of targets, cache loss and runs, checked after
 * every run against a model:
 * - every target is the machine output of its current source unless a person edited exactly that target;
 * - every machine output is recorded (the lock, reopened from disk, calls it current);
 * - a second run at once sends nothing, takes nothing from the cache and leaves the lock file untouched.
 * Targets live in memory as a keyed catalog would hold them; the translator is core's in-process pseudo
 * translator instead of a server (a real server would not fit 10,000 sequences in CI). The CLI's test of
 * the same model over real Markdown files and config changes is packages/cli/test/lock-model.test.ts.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  createPseudoTranslator,
  createTranslationCache,
  createTranslationRun,
  pseudoLocalize,
  type RunSegment,
  type TranslationCache,
  TranslationLock,
} from '../src/index.js';

const RUNS = Number(process.env.GLOSSA_LOCK_MODEL_RUNS ?? 10_000);
const KEYS = ['k1', 'k2', 'k3', 'k4', 'k5'] as const;
const LOCALES = ['en-XA', 'ar-XB'] as const;
const SENTENCES = [
  'Install the package.',
  'Run the <g id="1">build</g>.',
  'Open the settings page.',
  '{{count}} files',
  'Read the guide first.',
];
type Locale = (typeof LOCALES)[number];

interface Model {
  /** Key → source; absent keys are not in the project. */
  sources: Map<string, string>;
  locales: Locale[];
  /** Per locale, what the project's output holds per key. */
  outputs: Map<Locale, Map<string, string>>;
  /** Per locale, the keys whose output a person wrote. */
  humans: Map<Locale, Set<string>>;
  edits: number;
}

interface Real {
  readonly lockPath: string;
  cache: TranslationCache;
}

const segmentsOf = (model: Model): RunSegment[] =>
  [...model.sources].map(([key, source]) => ({ key, source, file: 'catalog.json' }));

async function translate(model: Model, real: Real, locale: Locale) {
  const lock = await TranslationLock.open(real.lockPath);
  const segments = segmentsOf(model);
  lock.prune(
    locale,
    segments.map((s) => s.key),
  );
  const existing = new Map(
    [...(model.outputs.get(locale) ?? new Map<string, string>())].filter(([key]) => model.sources.has(key)),
  );
  const run = createTranslationRun({
    translator: createPseudoTranslator(),
    targetLangs: [locale],
    lock,
    cache: real.cache,
  });
  const result = await run.translate({ segments, existingTargets: new Map([[locale, existing]]) });
  await lock.save();
  return result;
}

const fileState = async (path: string) => {
  const info = await stat(path).catch(() => undefined);
  return info && { ino: info.ino, mtimeMs: info.mtimeMs, size: info.size };
};

class SetSource implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly key: string,
    readonly source: string | undefined,
  ) {}
  check = () => true;
  async run(model: Model) {
    if (this.source === undefined) model.sources.delete(this.key);
    else model.sources.set(this.key, this.source);
  }
  toString = () => `source(${this.key}, ${JSON.stringify(this.source)})`;
}

class SetLocales implements fc.AsyncCommand<Model, Real> {
  constructor(readonly locales: Locale[]) {}
  check = () => true;
  async run(model: Model) {
    model.locales = [...this.locales];
  }
  toString = () => `locales(${this.locales.join('+')})`;
}

class HumanEdit implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly locale: Locale,
    readonly key: string,
  ) {}
  check = (model: Readonly<Model>) =>
    model.sources.has(this.key) && model.outputs.get(this.locale)?.has(this.key) === true;
  async run(model: Model) {
    model.outputs.get(this.locale)!.set(this.key, `Edited by a person ${++model.edits}.`);
    let humans = model.humans.get(this.locale);
    if (!humans) {
      humans = new Set();
      model.humans.set(this.locale, humans);
    }
    humans.add(this.key);
  }
  toString = () => `human(${this.locale}, ${this.key})`;
}

/** A run failed on this key (as `translate` records a failure): its output holds the source. */
class LeftInSource implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly locale: Locale,
    readonly key: string,
  ) {}
  check = (model: Readonly<Model>) => model.sources.has(this.key) && model.outputs.has(this.locale);
  async run(model: Model, real: Real) {
    model.outputs.get(this.locale)!.set(this.key, model.sources.get(this.key)!);
    model.humans.get(this.locale)?.delete(this.key);
    const lock = await TranslationLock.open(real.lockPath);
    lock.recordFailure(this.locale, this.key, model.sources.get(this.key)!);
    await lock.save();
  }
  toString = () => `left-in-source(${this.locale}, ${this.key})`;
}

class LoseCache implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(_model: Model, real: Real) {
    await real.cache.close();
    real.cache = createTranslationCache([createMemoryStore({ max: 1000 })]);
  }
  toString = () => 'lose-cache';
}

class Run implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    for (const locale of model.locales) {
      // The model: an output keeps only the project's keys (a rebuilt catalog); a person's text stays.
      const humans = model.humans.get(locale) ?? new Set<string>();
      for (const key of humans) if (!model.sources.has(key)) humans.delete(key);
      model.humans.set(locale, humans);
      const old = model.outputs.get(locale) ?? new Map<string, string>();
      const expected = new Map<string, string>();
      for (const [key, source] of model.sources) {
        expected.set(key, humans.has(key) ? old.get(key)! : pseudoLocalize(source, locale));
      }

      const first = await translate(model, real, locale);
      expect(first.report.failures).toEqual([]);
      expect(first.report.humanEdits).toBe(humans.size);
      expect(first.targets.get(locale)).toEqual(expected);
      model.outputs.set(locale, new Map(first.targets.get(locale)));

      // Every machine output is recorded: the lock on disk calls it current.
      const lock = await TranslationLock.open(real.lockPath);
      for (const [key, source] of model.sources) {
        // A person's text over a target the lock never recorded reads as `untracked`: kept all the same.
        const found = lock.state(locale, key, source, expected.get(key));
        const state = humans.has(key) && found === 'untracked' ? 'human-edit' : found;
        expect(`${key}: ${state}`).toBe(`${key}: ${humans.has(key) ? 'human-edit' : 'current'}`);
      }

      // At once again: nothing sent, nothing from the cache, the lock file not rewritten.
      const before = await fileState(real.lockPath);
      const second = await translate(model, real, locale);
      expect(second.report).toMatchObject({
        translated: 0,
        cacheHits: 0,
        requests: 0,
        humanEdits: humans.size,
      });
      expect(second.targets.get(locale)).toEqual(expected);
      expect(await fileState(real.lockPath)).toEqual(before);
    }
  }
  toString = () => 'run';
}

const key = fc.constantFrom(...KEYS);
const commands = [
  fc
    .tuple(key, fc.option(fc.constantFrom(...SENTENCES), { nil: undefined }))
    .map(([k, s]) => new SetSource(k, s)),
  fc.tuple(key, fc.constantFrom(...SENTENCES)).map(([k, s]) => new SetSource(k, s)),
  fc.subarray([...LOCALES], { minLength: 1 }).map((l) => new SetLocales(l)),
  fc.tuple(fc.constantFrom(...LOCALES), key).map(([l, k]) => new HumanEdit(l, k)),
  fc.tuple(fc.constantFrom(...LOCALES), key).map(([l, k]) => new LeftInSource(l, k)),
  fc.constant(new LoseCache()),
  fc.constant(new Run()),
  fc.constant(new Run()),
];

describe('glossa.lock against a model, core run (in-process pseudo translator instead of a server, for speed)', () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'glossa-core-lock-model-'));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it(`records every machine output and keeps exactly the edited targets over ${RUNS.toLocaleString('en-US')} random sequences`, async () => {
    let sequence = 0;
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 16 }), async (cmds) => {
        const real: Real = {
          lockPath: join(base, `${sequence++}.lock`),
          cache: createTranslationCache([createMemoryStore({ max: 1000 })]),
        };
        const model: Model = {
          sources: new Map([
            ['k1', SENTENCES[0]!],
            ['k2', SENTENCES[1]!],
          ]),
          locales: ['en-XA'],
          outputs: new Map(),
          humans: new Map(),
          edits: 0,
        };
        try {
          await fc.asyncModelRun(() => ({ model, real }), [...cmds, new Run()]);
        } finally {
          await real.cache.close();
          await rm(real.lockPath, { force: true });
        }
      }),
      { numRuns: RUNS },
    );
    console.log(
      `core lock model: ${RUNS} sequences in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 1_800_000);
});
