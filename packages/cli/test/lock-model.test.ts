/**
 * The lock never loses track: random sequences of source edits, config changes (front-matter fields,
 * locales), human edits of outputs and runs of `glossa translate`, checked after every run against a
 * model of what each output must hold:
 * - every target is the machine output of its current source, unless a person edited exactly that
 *   target (then it is kept, however its source changed);
 * - a run rewrites exactly the files whose text changes (time stamps and inodes of the others stay),
 *   and a second run at once sends nothing, writes nothing and says so.
 *
 * Each run is the real command (config, globs, remark extract/merge, lock, file cache, atomic writes) in
 * this process, translating with core's in-process pseudo translator instead of a server: tens of
 * thousands of runs over HTTP would not fit in CI.
 */

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createPseudoTranslator, pseudoLocalize } from '@glossa/core';
import * as remark from '@glossa/remark';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateCommand } from '../src/commands/translate.js';

const RUNS = Number(process.env.GLOSSA_LOCK_MODEL_RUNS ?? 200);
const FILES = ['docs/a.md', 'docs/b.md'] as const;
const FIELDS = ['title', 'tagline', 'description'] as const;
const LOCALES = ['en-XA', 'ar-XB'] as const;
const SENTENCES = [
  'Install the package.',
  'Run the build.',
  'Open the settings page.',
  'The cache is shared.',
  'Read the guide first.',
  'Links keep their anchors.',
];

type FileName = (typeof FILES)[number];
type Field = (typeof FIELDS)[number];
type Locale = (typeof LOCALES)[number];

interface SourceFile {
  fields: Record<Field, string>;
  paragraphs: string[];
}

/** One value of an output: Glossa's translation, a person's text, or the source's copy (a field not translated). */
interface OutputValue {
  readonly text: string;
  readonly kind: 'machine' | 'human' | 'copy';
  /** Whether the lock has an entry for it (a machine output was recorded at this key). */
  readonly tracked: boolean;
}

interface Output {
  /** Paragraphs it was written with. */
  paragraphs: number;
  /** Edited by a person since Glossa last left it. */
  touched: boolean;
  /** Per segment key (every front-matter field and paragraph). */
  values: Map<string, OutputValue>;
}

interface Model {
  files: Record<FileName, SourceFile>;
  frontmatter: Field[];
  locales: Locale[];
  outputs: Map<Locale, Map<FileName, Output>>;
  edits: number;
}

interface Real {
  dir: string;
}

const machine = (locale: Locale, text: string) => pseudoLocalize(text, locale);

function sourceText(file: SourceFile): string {
  const fields = FIELDS.map((f) => `${f}: ${file.fields[f]}`).join('\n');
  return `---\n${fields}\n---\n\n${file.paragraphs.join('\n\n')}\n`;
}

/** Segment key → source text of `file` under the model's config. */
function sourceSegments(model: Model, name: FileName): Map<string, string> {
  const file = model.files[name];
  const out = new Map<string, string>();
  for (const f of FIELDS)
    if (model.frontmatter.includes(f)) out.set(`${name}#frontmatter/${f}`, file.fields[f]);
  for (const [i, p] of file.paragraphs.entries()) out.set(`${name}#paragraph-${i + 1}`, p);
  return out;
}

/** `i18n/<locale>/<path under docs/>`. */
const outputOf = (locale: Locale, name: FileName) => join('i18n', locale, name.slice('docs/'.length));
const outputPath = (real: Real, locale: Locale, name: FileName) => join(real.dir, outputOf(locale, name));

async function writeProject(real: Real, model: Model): Promise<void> {
  const config = {
    sourceLang: 'en',
    targetLocales: model.locales,
    files: [{ include: 'docs/**/*.md', output: 'i18n/{locale}/{path}' }],
    markdown: { frontmatter: model.frontmatter },
    // A small memory tier: the default preallocates for 100,000 entries, 50 ms per command here.
    cache: { store: 'file', max: 1000 },
  };
  await writeFile(join(real.dir, 'glossa.config.json'), JSON.stringify(config));
  for (const name of FILES) {
    await mkdir(dirname(join(real.dir, name)), { recursive: true });
    await writeFile(join(real.dir, name), sourceText(model.files[name]));
  }
}

interface Snapshot {
  readonly text: string;
  readonly ino: number;
  readonly mtimeMs: number;
}

async function snapshot(real: Real): Promise<Map<string, Snapshot>> {
  const paths = ['glossa.lock', '.glossa/cache.jsonl'];
  for (const locale of LOCALES) for (const name of FILES) paths.push(outputOf(locale, name));
  const out = new Map<string, Snapshot>();
  for (const path of paths) {
    const full = join(real.dir, path);
    const info = await stat(full).catch(() => undefined);
    if (info) out.set(path, { text: await readFile(full, 'utf8'), ino: info.ino, mtimeMs: info.mtimeMs });
  }
  return out;
}

async function translate(real: Real) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await translateCommand(
    {
      io: { out: (t) => out.push(t), err: (t) => err.push(t), isTTY: false },
      cwd: real.dir,
      env: {},
      translator: createPseudoTranslator(),
    },
    [],
    { json: true },
  );
  expect(code, err.join('\n')).toBe(0);
  return JSON.parse(out.join('\n')) as {
    translated: number;
    cacheHits: number;
    unchanged: number;
    humanEdits: number;
    requests: number;
    written: string[];
    unchangedFiles: number;
  };
}

/** What changed between two snapshots; a file whose text is the same must not have been rewritten. */
function changes(before: Map<string, Snapshot>, after: Map<string, Snapshot>): string[] {
  const changed: string[] = [];
  for (const [path, now] of after) {
    const was = before.get(path);
    if (was === undefined || was.text !== now.text) changed.push(path);
    else {
      expect(
        { path, ino: now.ino, mtimeMs: now.mtimeMs },
        `${path} was rewritten with the same text`,
      ).toEqual({
        path,
        ino: was.ino,
        mtimeMs: was.mtimeMs,
      });
    }
  }
  for (const path of before.keys()) expect(after.has(path), `${path} was removed`).toBe(true);
  return changed.sort();
}

class EditSource implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly name: FileName,
    readonly at: number,
    readonly text: string,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const file = model.files[this.name];
    const slots = FIELDS.length + file.paragraphs.length;
    const at = this.at % slots;
    if (at < FIELDS.length) file.fields[FIELDS[at]!] = this.text;
    else file.paragraphs[at - FIELDS.length] = this.text;
    await writeProject(real, model);
  }
  toString = () => `edit(${this.name}, ${this.at}, ${JSON.stringify(this.text)})`;
}

class InsertParagraph implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly name: FileName,
    readonly at: number,
    readonly text: string,
  ) {}
  check = (model: Readonly<Model>) => model.files[this.name].paragraphs.length < 5;
  async run(model: Model, real: Real) {
    const paragraphs = model.files[this.name].paragraphs;
    paragraphs.splice(this.at % (paragraphs.length + 1), 0, this.text);
    await writeProject(real, model);
  }
  toString = () => `insert(${this.name}, ${this.at}, ${JSON.stringify(this.text)})`;
}

class RemoveParagraph implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly name: FileName,
    readonly at: number,
  ) {}
  check = (model: Readonly<Model>) => model.files[this.name].paragraphs.length > 1;
  async run(model: Model, real: Real) {
    const paragraphs = model.files[this.name].paragraphs;
    paragraphs.splice(this.at % paragraphs.length, 1);
    await writeProject(real, model);
  }
  toString = () => `remove(${this.name}, ${this.at})`;
}

class SetConfig implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly frontmatter: Field[],
    readonly locales: Locale[],
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    model.frontmatter = [...this.frontmatter];
    model.locales = [...this.locales];
    await writeProject(real, model);
  }
  toString = () => `config(${this.frontmatter.join('+') || '-'}, ${this.locales.join('+')})`;
}

/** A person edits one target in an output whose structure still matches its source. */
class HumanEdit implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly locale: Locale,
    readonly name: FileName,
    readonly at: number,
  ) {}
  check = (model: Readonly<Model>) =>
    model.outputs.get(this.locale)?.get(this.name)?.paragraphs === model.files[this.name].paragraphs.length;
  async run(model: Model, real: Real) {
    const keys = [...sourceSegments(model, this.name).keys()];
    const key = keys[this.at % keys.length]!;
    const path = outputPath(real, this.locale, this.name);
    const output = await readFile(path, 'utf8');
    const segment = remark
      .extract(output, { file: this.name, frontmatter: model.frontmatter })
      .segments.find((s) => s.key === key);
    expect(segment, `${key} in ${path}`).toBeDefined();
    const text = `Edited by a person ${++model.edits}.`;
    const lines = output.split('\n');
    const line = segment!.position!.line - 1;
    const field = key.match(/#frontmatter\/(\w+)$/)?.[1];
    lines[line] = field === undefined ? text : `${field}: ${text}`;
    await writeFile(path, lines.join('\n'));
    const out = model.outputs.get(this.locale)!.get(this.name)!;
    out.touched = true;
    out.values.set(key, { text, kind: 'human', tracked: out.values.get(key)!.tracked });
  }
  toString = () => `human(${this.locale}, ${this.name}, ${this.at})`;
}

class Run implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    // The model's side, per output: a restructured output (its paragraphs no longer line up) is written
    // anew; else a person's text at a tracked key is kept, a machine output follows its source, and an
    // untracked value (a field translated from now on) is the source's copy if nobody touched the file
    // since Glossa left it, else kept unless it equals the source.
    let kept = 0;
    const expected = new Map<string, Map<string, string>>();
    for (const locale of model.locales) {
      const outputs = model.outputs.get(locale) ?? new Map<FileName, Output>();
      model.outputs.set(locale, outputs);
      for (const name of FILES) {
        const file = model.files[name];
        const old = outputs.get(name);
        const fresh = old === undefined || old.paragraphs !== file.paragraphs.length;
        const values = new Map<string, OutputValue>();
        let untrackedKept = false;
        for (const [key, source] of sourceSegments(model, name)) {
          const was = fresh ? undefined : old.values.get(key);
          const keep =
            was !== undefined && (was.tracked ? was.kind === 'human' : old!.touched && was.text !== source);
          if (keep) {
            kept++;
            if (!was.tracked) untrackedKept = true;
            values.set(key, was);
          } else values.set(key, { text: machine(locale, source), kind: 'machine', tracked: true });
        }
        for (const f of FIELDS) {
          if (!model.frontmatter.includes(f))
            values.set(`${name}#frontmatter/${f}`, { text: file.fields[f], kind: 'copy', tracked: false });
        }
        outputs.set(name, { paragraphs: file.paragraphs.length, touched: untrackedKept, values });
        const targets = new Map<string, string>();
        for (const key of sourceSegments(model, name).keys()) targets.set(key, values.get(key)!.text);
        expected.set(`${locale}/${name}`, targets);
      }
    }

    const before = await snapshot(real);
    const first = await translate(real);
    const afterFirst = await snapshot(real);
    const changed = changes(before, afterFirst);
    const outputs = new Set(model.locales.flatMap((l) => FILES.map((f) => outputOf(l, f))));
    for (const path of changed) {
      expect(outputs.has(path) || path === 'glossa.lock' || path === '.glossa/cache.jsonl', path).toBe(true);
    }
    expect([...first.written].sort()).toEqual(changed.filter((p) => outputs.has(p)));
    expect(first.unchangedFiles).toBe(outputs.size - first.written.length);
    expect(first.humanEdits).toBe(kept);

    for (const locale of model.locales) {
      for (const name of FILES) {
        const output = await readFile(outputPath(real, locale, name), 'utf8');
        const found = remark.extract(output, { file: name, frontmatter: model.frontmatter }).segments;
        const want = expected.get(`${locale}/${name}`)!;
        expect(new Map(found.map((s) => [s.key, s.source])), `${locale}/${name}:\n${output}`).toEqual(want);
        // Fields not translated are the source's.
        for (const f of FIELDS) {
          if (!model.frontmatter.includes(f))
            expect(output).toContain(`\n${f}: ${model.files[name].fields[f]}\n`);
        }
      }
    }

    // At once again: nothing to send, nothing to write, and the report says so.
    const second = await translate(real);
    expect(changes(afterFirst, await snapshot(real))).toEqual([]);
    expect(second).toMatchObject({ translated: 0, cacheHits: 0, requests: 0, written: [] });
    expect(second.humanEdits).toBe(kept);
    expect(second.unchangedFiles).toBe(outputs.size);
  }
  toString = () => 'run';
}

const sentence = fc.constantFrom(...SENTENCES);
const fileName = fc.constantFrom(...FILES);
const slot = fc.nat({ max: 7 });
const commands = [
  fc.tuple(fileName, slot, sentence).map(([n, a, t]) => new EditSource(n, a, t)),
  fc.tuple(fileName, slot, sentence).map(([n, a, t]) => new InsertParagraph(n, a, t)),
  fc.tuple(fileName, slot).map(([n, a]) => new RemoveParagraph(n, a)),
  fc
    .tuple(fc.subarray([...FIELDS]), fc.subarray([...LOCALES], { minLength: 1 }))
    .map(([f, l]) => new SetConfig(f, l)),
  fc.tuple(fc.constantFrom(...LOCALES), fileName, slot).map(([l, n, a]) => new HumanEdit(l, n, a)),
  fc.constant(new Run()),
  fc.constant(new Run()),
];

describe('glossa.lock against a model (in-process pseudo translator instead of a server, for speed)', () => {
  let base: string;
  beforeAll(async () => {
    // Memory-backed when the machine has one (fsync is free there): the same code paths, 10x faster.
    base = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'glossa-lock-model-'));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it(`keeps outputs, edits and the lock in step over ${RUNS.toLocaleString('en-US')} random sequences`, async () => {
    let sequence = 0;
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 12 }), async (cmds) => {
        const real = { dir: join(base, String(sequence++)) };
        await mkdir(real.dir, { recursive: true });
        const model: Model = {
          files: {
            'docs/a.md': {
              fields: { title: SENTENCES[0]!, tagline: SENTENCES[1]!, description: SENTENCES[2]! },
              paragraphs: [SENTENCES[3]!, SENTENCES[4]!],
            },
            'docs/b.md': {
              fields: { title: SENTENCES[5]!, tagline: SENTENCES[0]!, description: SENTENCES[1]! },
              paragraphs: [SENTENCES[2]!],
            },
          },
          frontmatter: ['title'],
          locales: ['en-XA'],
          outputs: new Map(),
          edits: 0,
        };
        await writeProject(real, model);
        try {
          await fc.asyncModelRun(() => ({ model, real }), [...cmds, new Run()]);
        } finally {
          await rm(real.dir, { recursive: true, force: true });
        }
      }),
      { numRuns: RUNS },
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(`lock model: ${RUNS} sequences in ${seconds.toFixed(1)} s`);
  }, 3_600_000);
});
