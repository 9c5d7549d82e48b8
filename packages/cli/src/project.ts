/**
 * A project as the commands see it: its input files extracted into segments, the targets already in
 * their outputs, the lock and the cache. Commands build on `openProject`.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import {
  openConfiguredCache,
  type ResolvedConfig,
  type RunSegment,
  type TranslationCache,
  TranslationLock,
} from '@glossa/core';
import { ADAPTERS, type ContentMessage, type Extracted, type WriteProblem } from './adapters.js';
import { copyReferencedFiles } from './assets.js';
import { UsageError } from './errors.js';
import { decodeUtf8, type FileFailure, positionOfError } from './file-failures.js';
import type { InputFile } from './inputs.js';
import { rewriteStarlightFragments, type StarlightPage } from './starlight-anchors.js';
import { readStarlightBase } from './starlight-chrome.js';

export interface ProjectFile {
  readonly input: InputFile;
  readonly extracted: Extracted;
}

export interface ContentWarning extends ContentMessage {
  readonly file: string;
}

export interface Project {
  readonly config: ResolvedConfig;
  readonly files: readonly ProjectFile[];
  readonly segments: readonly RunSegment[];
  /** Segment key → its file. */
  readonly fileOfKey: ReadonlyMap<string, ProjectFile>;
  readonly warnings: readonly ContentWarning[];
  /** Files that could not be read, decoded or parsed: left out of the run, their outputs left as they were. */
  readonly failed: readonly FileFailure[];
  readonly lock: TranslationLock | undefined;
}

export interface ExistingTargets {
  readonly targets: Map<string, string>;
  /** Outputs (absolute paths) whose structure no longer matches their source (their targets are not reused). */
  readonly restructured: string[];
}

/**
 * Reads and extracts every input file. A file that cannot be read, is not UTF-8 or that its adapter
 * rejects is listed in `failed` with a position; the other files go on.
 */
export async function openProject(config: ResolvedConfig, inputs: readonly InputFile[]): Promise<Project> {
  const files: ProjectFile[] = [];
  const warnings: ContentWarning[] = [];
  const failed: FileFailure[] = [];
  for (const input of inputs) {
    const bytes = await readFile(input.path).catch((error: NodeJS.ErrnoException) => error);
    if (bytes instanceof Error) {
      const reason = `cannot read: ${bytes.code ?? bytes.name}: ${bytes.message}`;
      failed.push({ file: input.id, line: 1, column: 1, stage: 'read', reason });
      continue;
    }
    const decoded = decodeUtf8(bytes);
    if (!('text' in decoded)) {
      failed.push({ file: input.id, stage: 'decode', ...decoded });
      continue;
    }
    let extracted: Extracted;
    try {
      extracted = ADAPTERS[input.adapter].extract(decoded.text, input.id, config.markdown, input.syntax);
    } catch (error) {
      const reason = `cannot parse as ${input.adapter}: ${(error as Error).message ?? String(error)}`;
      failed.push({ file: input.id, stage: 'parse', ...positionOfError(error, decoded.text), reason });
      continue;
    }
    files.push({ input, extracted });
    for (const m of extracted.messages) warnings.push({ file: input.id, ...m });
  }
  const segments: RunSegment[] = [];
  const fileOfKey = new Map<string, ProjectFile>();
  for (const file of files) {
    for (const segment of file.extracted.segments) {
      segments.push({ ...segment, file: file.input.id });
      fileOfKey.set(segment.key, file);
    }
  }
  const lock = config.lock === undefined ? undefined : await TranslationLock.open(config.lock);
  return { config, files, segments, fileOfKey, warnings, failed, lock };
}

/** The targets already in the outputs for `locale`. */
export async function readExistingTargets(project: Project, locale: string): Promise<ExistingTargets> {
  const targets = new Map<string, string>();
  const restructured: string[] = [];
  for (const file of project.files) {
    const path = file.input.outputFor(locale);
    const text = await readFile(path, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    let found: Map<string, string> | undefined;
    try {
      found = ADAPTERS[file.input.adapter].readTargets(
        text,
        file.input.id,
        file.extracted,
        project.config.markdown,
      );
    } catch {
      found = undefined;
    }
    if (found === undefined) restructured.push(path);
    else {
      // A target equal to its source that the lock never saw (a failure kept in the source language) is
      // treated as missing by core's run. In an output still as Glossa left it, every value the lock has
      // no entry for is the source's copy (a field translated from now on, written before from an older
      // source): missing too, not a person's edit.
      const untouched = project.lock?.isUntouchedOutput(locale, file.input.id, text) === true;
      for (const [key, target] of found) {
        if (untouched && project.lock!.get(locale, key) === undefined) continue;
        targets.set(key, target);
      }
    }
  }
  return { targets, restructured };
}

export function openCache(project: Project): Promise<TranslationCache> {
  return openConfiguredCache(project.config);
}

/**
 * Writes every output of `locale` whose text changed (temp file + rename); an output that already holds
 * that text is not touched (its time stamp stays). A Markdown page's relative images and downloads are
 * copied beside its output (`copyReferencedFiles`); a Starlight page's `#fragment` links lead to the
 * translated headings (`starlight-anchors.ts`). Returns the paths written. A file whose output cannot
 * be built or written is reported to `onFailure` (its output is left as it was); the others go on.
 */
export async function writeOutputs(
  project: Project,
  locale: string,
  targets: ReadonlyMap<string, string>,
  onProblem: (problem: WriteProblem & { file: string }) => void,
  onFailure: (failure: FileFailure) => void = (failure) => {
    throw new UsageError(`${failure.file}: ${failure.reason}`);
  },
  /** Called with each output's text once it is on disk (written now or already there). */
  onOutput?: (file: ProjectFile, text: string) => void,
): Promise<string[]> {
  const fail = (file: ProjectFile, error: unknown) =>
    onFailure({
      file: file.input.id,
      line: 1,
      column: 1,
      stage: 'write',
      locale,
      reason: `cannot write the ${locale} output: ${(error as Error).message ?? String(error)}`,
    });
  const texts = new Map<ProjectFile, string>();
  for (const file of project.files) {
    if (file.input.outputFor(locale) === file.input.path)
      throw new UsageError(`${file.input.id}: its output for ${locale} is the input itself`);
    try {
      texts.set(
        file,
        await file.extracted.write(targets, locale, (p) => onProblem({ ...p, file: file.input.id })),
      );
    } catch (error) {
      fail(file, error);
    }
  }
  if (project.config.markdown.dialect === 'starlight') await rewriteFragments(texts);
  const written: string[] = [];
  for (const [file, text] of texts) {
    const path = file.input.outputFor(locale);
    try {
      const before = await readFile(path, 'utf8').catch(() => undefined);
      if (before !== text) {
        await mkdir(dirname(path), { recursive: true });
        const tmp = `${path}.tmp-${process.pid}`;
        await writeFile(tmp, text);
        await rename(tmp, path);
        written.push(path);
      }
      onOutput?.(file, text);
      if (file.input.adapter === 'markdown') {
        const source = await readFile(file.input.path, 'utf8');
        written.push(...(await copyReferencedFiles(project.config.root, file.input.path, source, path)));
      }
    } catch (error) {
      fail(file, error);
    }
  }
  return written;

  /** A Starlight site's `#fragment` links to translated headings (`starlight-anchors.ts`). */
  async function rewriteFragments(outputs: Map<ProjectFile, string>): Promise<void> {
    const pages: (StarlightPage & { file: ProjectFile })[] = [];
    for (const [file, translated] of outputs) {
      if (file.input.adapter !== 'markdown') continue;
      // The page's path under the docs folder: what follows the locale's folder in its output.
      const marked = file.input.outputFor(LOCALE_MARK).split(sep).join('/');
      const at = marked.indexOf(`/${LOCALE_MARK}/`);
      if (at === -1) continue;
      const source = await readFile(file.input.path, 'utf8').catch(() => undefined);
      if (source === undefined) continue;
      const path = marked.slice(at + LOCALE_MARK.length + 2);
      pages.push({ file, id: file.input.id, path, source, translated });
    }
    const base = await readStarlightBase(project.config.root);
    const rewritten = rewriteStarlightFragments(pages, project.config.markdown, locale.toLowerCase(), base);
    for (const page of pages) {
      const text = rewritten.get(page.id);
      if (text !== undefined) outputs.set(page.file, text);
    }
  }
}

/** A locale no project has: where it lands in an output path shows the page's path under its locale folder. */
const LOCALE_MARK = '\u0001locale\u0001';
