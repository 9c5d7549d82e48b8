/**
 * `glossa xliff export` writes one XLIFF file per locale with every segment and its current target, for a
 * human translator; `glossa xliff import` puts the edited targets back into the outputs, where the lock
 * keeps them as human edits that later runs never overwrite.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { verifyCodes } from '@glossa/core';
import { canonicalLanguage } from '@glossa/protocol';
import { exportXliff, importXliff, parseXliff } from '@glossa/xliff';
import { loadCommandConfig, type ProjectFlags, parseLocales, targetLocales } from '../context.js';
import { UsageError } from '../errors.js';
import { warnFailedFiles } from '../file-failures.js';
import { collectInputs } from '../inputs.js';
import { openProject, readExistingTargets, writeOutputs } from '../project.js';
import type { CommandEnv } from './translate.js';

export interface XliffFlags extends ProjectFlags {
  readonly dir?: string;
  readonly version?: string;
}

export async function xliffExportCommand(
  ctx: CommandEnv,
  args: readonly string[],
  flags: XliffFlags,
): Promise<number> {
  const version = flags.version ?? '2.1';
  if (version !== '1.2' && version !== '2.1')
    throw new UsageError(`--version: expected 1.2 or 2.1, got '${version}'`);
  const config = await loadCommandConfig(ctx.cwd, args, flags, ctx.env);
  const locales = targetLocales(config, flags);
  const project = await openProject(config, await collectInputs(config, args, ctx.cwd, locales));
  const failed = warnFailedFiles(ctx.io.err, project.failed);
  const dir = resolve(ctx.cwd, flags.dir ?? 'xliff');
  await mkdir(dir, { recursive: true });
  const codes = Object.assign({}, ...project.files.map((f) => f.extracted.codes));
  for (const locale of locales) {
    const { targets } = await readExistingTargets(project, locale);
    const text = exportXliff(project.segments, {
      version,
      sourceLanguage: config.sourceLang,
      targetLanguage: locale,
      codes,
      targets,
    });
    const path = join(dir, `${locale}.xlf`);
    await writeFile(path, text);
    ctx.io.out(`${relative(ctx.cwd, path)}: ${project.segments.length} units, ${targets.size} with a target`);
  }
  return failed > 0 ? 1 : 0;
}

export async function xliffImportCommand(
  ctx: CommandEnv,
  file: string,
  args: readonly string[],
  flags: XliffFlags,
): Promise<number> {
  const text = await readFile(resolve(ctx.cwd, file), 'utf8').catch((error: Error) => {
    throw new UsageError(`cannot read ${file}: ${error.message}`);
  });
  let imported: ReturnType<typeof importXliff>;
  let fileLocale: string | undefined;
  try {
    fileLocale = parseXliff(text).targetLanguage;
    imported = importXliff(text);
  } catch (error) {
    throw new UsageError(`${file}: ${(error as Error).message}`);
  }
  const locale =
    flags.to !== undefined ? parseLocales(flags.to)[0]! : fileLocale && canonicalLanguage(fileLocale);
  if (locale === undefined) throw new UsageError(`${file} names no target language: pass --to <locale>`);
  const config = await loadCommandConfig(ctx.cwd, args, flags, ctx.env);
  const project = await openProject(config, await collectInputs(config, args, ctx.cwd, [locale]));
  const { targets } = await readExistingTargets(project, locale);
  let applied = 0;
  let problems = 0;
  for (const unit of imported) {
    const segment = project.segments.find((s) => s.key === unit.key);
    if (!segment) {
      ctx.io.err(`${file}: unit ${unit.key} is not a segment of this project (skipped)`);
      problems++;
      continue;
    }
    if (unit.source !== segment.source) {
      ctx.io.err(`${file}: unit ${unit.key}: its source changed since the export (skipped; export again)`);
      problems++;
      continue;
    }
    const broken = verifyCodes(segment.source, unit.target);
    if (broken !== undefined) {
      ctx.io.err(`${file}: unit ${unit.key}: ${broken} (skipped; the segment keeps its current target)`);
      problems++;
      continue;
    }
    const current = targets.get(unit.key);
    if (current === unit.target) continue;
    const state = project.lock?.state(locale, unit.key, segment.source, current);
    if (unit.origin === 'machine' && (state === 'human-edit' || state === 'untracked')) {
      // Not marked reviewed or final: an older export must not undo an edit made since.
      ctx.io.err(
        `${file}: unit ${unit.key}: kept the current human edit (the imported target is not reviewed or final)`,
      );
      continue;
    }
    applied++;
    targets.set(unit.key, unit.target);
  }
  problems += warnFailedFiles(ctx.io.err, project.failed);
  const written = await writeOutputs(
    project,
    locale,
    targets,
    (p) => {
      ctx.io.err(`${p.file}: ${p.key}: ${p.reason}`);
      problems++;
    },
    (failure) => (problems += warnFailedFiles(ctx.io.err, [failure])),
  );
  ctx.io.out(
    `${locale}: ${applied} target(s) changed from ${relative(ctx.cwd, resolve(ctx.cwd, file))}, ${written.length} file(s) written`,
  );
  return problems > 0 ? 1 : 0;
}
