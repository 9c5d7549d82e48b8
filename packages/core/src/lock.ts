/**
 * `glossa.lock`: per locale and segment key, the hash of the source and of the last machine output.
 * A target that differs from the last machine output was edited by a person and is never overwritten.
 * Per locale and output file, it also holds the hash of the text last written (or found current), so
 * a value in that output the lock has no entry for (a front-matter field translated from now on) is
 * known to be the source's copy, not a person's work, while the file is as Glossa left it.
 * Format: JSON, one entry per line, sorted, so it diffs and merges well. Saved atomically.
 */
import { open, readFile, rename } from 'node:fs/promises';
import { contentHash, normalizeSource } from './cache/key.js';
import { LockFileError } from './errors.js';

export interface LockEntry {
  /** Hash of the source the machine output was made from. */
  readonly source: string;
  /** Hash of the machine output written to the target. */
  readonly target: string;
  /** The translation failed and the source was written: the next run tries again. */
  readonly failed?: true;
  /**
   * Words of the source language the service left in this machine output (a warning, not a failure): kept
   * while the output is, so a run that sends nothing, `status` and `check` still name them.
   */
  readonly left?: readonly string[];
}

/**
 * - `missing`: no target yet: translate.
 * - `current`: the target is our machine output for this very source: keep, no request.
 * - `stale`: the target is our machine output for an older source, or the source itself left there by
 *   a failed translation (recorded with `recordFailure`): retranslate.
 * - `human-edit`: the target differs from our last machine output (and is no machine output the lock
 *   holds for another segment of that locale, which is what a paragraph moved by a source edit reads
 *   as): never overwrite.
 * - `untracked`: a target the lock has never seen (written by a person): never overwrite.
 */
export type TargetState = 'missing' | 'current' | 'stale' | 'human-edit' | 'untracked';

export interface StaleTarget {
  readonly locale: string;
  readonly key: string;
  readonly state: TargetState;
}

const LOCK_VERSION = 1;
const hash = (text: string) => contentHash(normalizeSource(text));

export class TranslationLock {
  readonly path: string;
  readonly #entries: Map<string, Map<string, LockEntry>>;
  /** Per locale and input file id: the hash of its output as Glossa last left it. */
  readonly #outputs: Map<string, Map<string, string>>;
  /** Per locale, the target hashes of its entries (built on first use, dropped when they change). */
  readonly #targetHashes = new Map<string, Set<string>>();
  #dirty = false;

  private constructor(
    path: string,
    entries: Map<string, Map<string, LockEntry>>,
    outputs: Map<string, Map<string, string>> = new Map(),
  ) {
    this.path = path;
    this.#entries = entries;
    this.#outputs = outputs;
  }

  /** Reads the lock at `path` (an absent file is an empty lock). Throws `LockFileError` if unreadable. */
  static async open(path: string): Promise<TranslationLock> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new TranslationLock(path, new Map());
      throw new LockFileError(`Cannot read ${path}: ${(error as Error).message}`, { cause: error });
    }
    let data: {
      version?: unknown;
      entries?: Record<string, Record<string, LockEntry>>;
      outputs?: Record<string, Record<string, string>>;
    };
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new LockFileError(`${path} is not valid JSON: ${(error as Error).message}`, { cause: error });
    }
    if (data.version !== LOCK_VERSION || typeof data.entries !== 'object' || data.entries === null) {
      throw new LockFileError(`${path}: expected {"version": ${LOCK_VERSION}, "entries": {...}}`);
    }
    const entries = new Map<string, Map<string, LockEntry>>();
    for (const [locale, byKey] of Object.entries(data.entries)) {
      entries.set(locale, new Map(Object.entries(byKey)));
    }
    const outputs = new Map<string, Map<string, string>>();
    if (typeof data.outputs === 'object' && data.outputs !== null) {
      for (const [locale, byFile] of Object.entries(data.outputs)) {
        outputs.set(locale, new Map(Object.entries(byFile)));
      }
    }
    return new TranslationLock(path, entries, outputs);
  }

  /** Number of entries for `locale`. */
  size(locale: string): number {
    return this.#entries.get(locale)?.size ?? 0;
  }

  get(locale: string, key: string): LockEntry | undefined {
    return this.#entries.get(locale)?.get(key);
  }

  /** What to do with the target of `key` in `locale`, given its current source and target. */
  state(locale: string, key: string, source: string, target: string | undefined): TargetState {
    if (target === undefined) return 'missing';
    const entry = this.get(locale, key);
    if (!entry) return 'untracked';
    const targetHash = hash(target);
    if (targetHash !== entry.target) {
      // The machine output of another segment at this key: the source's paragraphs moved (one deleted,
      // one added) while the output kept its places. Not a person's work: translate it again.
      return this.#machineOutputs(locale).has(targetHash) ? 'stale' : 'human-edit';
    }
    // The source, kept by a failure: try again (a later source change is not a person's edit either).
    if (entry.failed) return 'stale';
    return hash(source) === entry.source ? 'current' : 'stale';
  }

  /** Records that `source` could not be translated and was written as the target: retried by the next run. */
  recordFailure(locale: string, key: string, source: string): void {
    this.#set(locale, key, { source: hash(source), target: hash(source), failed: true });
  }

  #machineOutputs(locale: string): Set<string> {
    let hashes = this.#targetHashes.get(locale);
    if (!hashes) {
      const entries = [...(this.#entries.get(locale)?.values() ?? [])];
      hashes = new Set(entries.filter((e) => !e.failed).map((e) => e.target));
      this.#targetHashes.set(locale, hashes);
    }
    return hashes;
  }

  /** Records that the output of input `file` for `locale` holds `text`, as Glossa wrote (or found) it. */
  recordOutput(locale: string, file: string, text: string): void {
    let byFile = this.#outputs.get(locale);
    if (!byFile) {
      byFile = new Map();
      this.#outputs.set(locale, byFile);
    }
    const digest = contentHash(text);
    if (byFile.get(file) === digest) return;
    byFile.set(file, digest);
    this.#dirty = true;
  }

  /** Whether the output of `file` for `locale` still holds what Glossa last left in it (`text` is its content). */
  isUntouchedOutput(locale: string, file: string, text: string): boolean {
    return this.#outputs.get(locale)?.get(file) === contentHash(text);
  }

  /**
   * Records a machine output written for `source`. The same output for the same source (a cache hit after
   * the output file was deleted) keeps the words left in it.
   */
  record(locale: string, key: string, source: string, machineTarget: string): void {
    const entry = { source: hash(source), target: hash(machineTarget) };
    const old = this.get(locale, key);
    const same = old && !old.failed && old.source === entry.source && old.target === entry.target;
    this.#set(locale, key, same && old.left ? { ...entry, left: old.left } : entry);
  }

  /**
   * Records the words of the source language the service left in the machine output of `key` (recorded
   * before with `record`); no words clears them. Without an entry, or for a failure, nothing is recorded.
   */
  recordLeft(locale: string, key: string, words: readonly string[]): void {
    const old = this.get(locale, key);
    if (!old || old.failed) return;
    const left = [...new Set(words)];
    const entry = { source: old.source, target: old.target };
    this.#set(locale, key, left.length > 0 ? { ...entry, left } : entry);
  }

  /**
   * The words of the source language left in the machine output of `key`, while it is `current`: the
   * output is `target` and was made from `source`.
   */
  leftWords(locale: string, key: string, source: string, target: string | undefined): readonly string[] {
    const entry = this.get(locale, key);
    if (!entry?.left || entry.failed || target === undefined) return [];
    return hash(target) === entry.target && hash(source) === entry.source ? entry.left : [];
  }

  #set(locale: string, key: string, entry: LockEntry): void {
    let byKey = this.#entries.get(locale);
    if (!byKey) {
      byKey = new Map();
      this.#entries.set(locale, byKey);
    }
    const old = byKey.get(key);
    if (
      old?.source === entry.source &&
      old.target === entry.target &&
      old.failed === entry.failed &&
      (old.left ?? []).join('\n') === (entry.left ?? []).join('\n')
    )
      return;
    byKey.set(key, entry);
    this.#targetHashes.delete(locale);
    this.#dirty = true;
  }

  /** Targets older than their source: machine output made from an older source, and edits made before it changed. */
  staleness(
    locale: string,
    items: Iterable<{ key: string; source: string; target?: string | undefined }>,
  ): StaleTarget[] {
    const stale: StaleTarget[] = [];
    for (const item of items) {
      const state = this.state(locale, item.key, item.source, item.target);
      const entry = this.get(locale, item.key);
      if (state === 'stale' || (state === 'human-edit' && entry && entry.source !== hash(item.source))) {
        stale.push({ locale, key: item.key, state });
      }
    }
    return stale;
  }

  /** Human edits (including untracked targets) among `items`, ready to be imported into a memory. */
  humanEdits(
    locale: string,
    items: Iterable<{ key: string; source: string; target?: string | undefined }>,
  ): { key: string; source: string; target: string }[] {
    const edits: { key: string; source: string; target: string }[] = [];
    for (const item of items) {
      const state = this.state(locale, item.key, item.source, item.target);
      if ((state === 'human-edit' || state === 'untracked') && item.target !== undefined) {
        edits.push({ key: item.key, source: item.source, target: item.target });
      }
    }
    return edits;
  }

  /**
   * Drops the entries of `locale` whose key is not in `keys` (segments deleted from the project, fields
   * no longer translated). With `within`, only the entries it accepts are considered (the files of a run
   * over part of a project), so the entries of files the run did not read stay.
   */
  prune(locale: string, keys: Iterable<string>, within?: (key: string) => boolean): string[] {
    const byKey = this.#entries.get(locale);
    if (!byKey) return [];
    const live = new Set(keys);
    const dropped = [...byKey.keys()].filter((key) => !live.has(key) && (within?.(key) ?? true));
    for (const key of dropped) byKey.delete(key);
    if (dropped.length > 0) {
      this.#targetHashes.delete(locale);
      this.#dirty = true;
    }
    return dropped;
  }

  /** Writes the lock if it changed: temp file, flush, rename. */
  async save(): Promise<void> {
    if (!this.#dirty) return;
    const tmp = `${this.path}.tmp-${process.pid}`;
    try {
      const handle = await open(tmp, 'w');
      try {
        for (const chunk of this.#chunks()) await handle.write(chunk);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, this.path);
    } catch (error) {
      throw new LockFileError(`Cannot write ${this.path}: ${(error as Error).message}`, { cause: error });
    }
    this.#dirty = false;
  }

  /** The file's text in chunks of up to 4,096 lines, so a large lock is never one string. */
  *#chunks(): Generator<string> {
    const locales = [...this.#entries.keys()].sort();
    let lines = ['{', `  "version": ${LOCK_VERSION},`, '  "entries": {'];
    for (const [i, locale] of locales.entries()) {
      const byKey = this.#entries.get(locale)!;
      const keys = [...byKey.keys()].sort();
      lines.push(`    ${JSON.stringify(locale)}: {`);
      for (const [j, key] of keys.entries()) {
        const e = byKey.get(key)!;
        const comma = j < keys.length - 1 ? ',' : '';
        const failed = e.failed ? ', "failed": true' : '';
        const left = e.left ? `, "left": ${JSON.stringify(e.left)}` : '';
        lines.push(
          `      ${JSON.stringify(key)}: { "source": "${e.source}", "target": "${e.target}"${failed}${left} }${comma}`,
        );
        if (lines.length >= 4096) {
          yield `${lines.join('\n')}\n`;
          lines = [];
        }
      }
      lines.push(`    }${i < locales.length - 1 ? ',' : ''}`);
    }
    lines.push(this.#outputs.size > 0 ? '  },' : '  }');
    if (this.#outputs.size > 0) {
      const outputLocales = [...this.#outputs.keys()].sort();
      lines.push('  "outputs": {');
      for (const [i, locale] of outputLocales.entries()) {
        const byFile = this.#outputs.get(locale)!;
        const files = [...byFile.keys()].sort();
        lines.push(`    ${JSON.stringify(locale)}: {`);
        for (const [j, file] of files.entries()) {
          lines.push(
            `      ${JSON.stringify(file)}: "${byFile.get(file)}"${j < files.length - 1 ? ',' : ''}`,
          );
          if (lines.length >= 4096) {
            yield `${lines.join('\n')}\n`;
            lines = [];
          }
        }
        lines.push(`    }${i < outputLocales.length - 1 ? ',' : ''}`);
      }
      lines.push('  }');
    }
    lines.push('}', '');
    yield lines.join('\n');
  }
}
