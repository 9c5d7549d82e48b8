/**
 * A project as the commands see it: its input files extracted into segments, the targets already in
 * their outputs, the lock and the cache. Commands build on `openProject`.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  openConfiguredCache,
  type ResolvedConfig,
  type RunSegment,
  type TranslationCache,
  TranslationLock,
} from '@glossa/core';
import { ADAPTERS, type ContentMessage, type Extracted, type WriteProblem } from './adapters.js';
import { UsageError } from './errors.js';
import type { InputFile } from './inputs.js';

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
  readonly lock: TranslationLock | undefined;
}

export interface ExistingTargets {
  readonly targets: Map<string, string>;
  /** Outputs (absolute paths) whose structure no longer matches their source (their targets are not reused). */
  readonly restructured: string[];
}

/** Reads and extracts every input file. A file that cannot be parsed is a `UsageError` naming it. */
export async function openProject(config: ResolvedConfig, inputs: readonly InputFile[]): Promise<Project> {
  const files: ProjectFile[] = [];
  const warnings: ContentWarning[] = [];
  for (const input of inputs) {
    const text = await readFile(input.path, 'utf8');
    let extracted: Extracted;
    try {
      extracted = ADAPTERS[input.adapter].extract(text, input.id);
    } catch (error) {
      throw new UsageError(`${input.id}: cannot read as ${input.adapter}: ${(error as Error).message}`);
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
  return { config, files, segments, fileOfKey, warnings, lock };
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
      found = ADAPTERS[file.input.adapter].readTargets(text, file.input.id, file.extracted);
    } catch {
      found = undefined;
    }
    if (found === undefined) restructured.push(path);
    else {
      // A target equal to its source that the lock never saw (a failure kept in the source language) is
      // treated as missing by core's run.
      for (const [key, target] of found) {
        targets.set(key, target);
      }
    }
  }
  return { targets, restructured };
}

export function openCache(project: Project): Promise<TranslationCache> {
  return openConfiguredCache(project.config);
}

/** Writes every output of `locale` (temp file + rename). Returns the paths written. */
export async function writeOutputs(
  project: Project,
  locale: string,
  targets: ReadonlyMap<string, string>,
  onProblem: (problem: WriteProblem & { file: string }) => void,
): Promise<string[]> {
  const written: string[] = [];
  for (const file of project.files) {
    const text = await file.extracted.write(targets, locale, (p) => onProblem({ ...p, file: file.input.id }));
    const path = file.input.outputFor(locale);
    if (path === file.input.path)
      throw new UsageError(`${file.input.id}: its output for ${locale} is the input itself`);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${process.pid}`;
    await writeFile(tmp, text);
    await rename(tmp, path);
    written.push(path);
  }
  return written;
}
