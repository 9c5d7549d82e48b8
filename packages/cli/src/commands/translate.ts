/** `glossa translate` and `glossa estimate`: the main job, and what it would cost. */
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import {
  addRunReports,
  createQaCheck,
  createTranslationRun,
  emptyRunReport,
  engineFingerprint,
  enginesFor,
  type RunEstimate,
  type RunReport,
  type Translator,
} from '@glossa/core';
import { evaluateSegments } from '@glossa/quality';
import { loadCommandConfig, type ProjectFlags, targetLocales } from '../context.js';
import { type FileFailure, formatFileFailure } from '../file-failures.js';
import { collectInputs } from '../inputs.js';
import type { CliIo } from '../io.js';
import { openCache, openProject, type Project, readExistingTargets, writeOutputs } from '../project.js';
import {
  createProgress,
  formatLeftWords,
  formatReport,
  LEFT_WORDS_NOTE,
  type LeftWordsWarning,
  leftWordsWarnings,
  where,
} from '../report.js';
import { type LocaleResources, localResources, syncResources } from '../resources.js';
import {
  keptSourceCheck,
  type LeftWordsItem,
  openService,
  remoteEngineFingerprints,
  remoteFingerprintOf,
  type Service,
} from '../service.js';
import {
  chromeSite,
  readSiteChrome,
  type SiteChrome,
  writeChromeCatalog,
  writeLocales,
  writeLocalesPlaceholder,
} from '../vitepress-chrome.js';

/** Used when every target is current or cached (the estimate planned no request), so none is sent. */
const NO_SERVICE: Translator = {
  translateText: () =>
    Promise.reject(new Error('glossa: a request was not planned (no service was started)')),
};

export interface TranslateFlags extends ProjectFlags {
  readonly json?: boolean;
}

export interface CommandEnv {
  readonly io: CliIo;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Translates instead of the configured service (none is started): for tests that run many thousand
   * commands in one process. Not a command-line option.
   */
  readonly translator?: Translator;
}

async function prepare(
  ctx: CommandEnv,
  args: readonly string[],
  flags: ProjectFlags,
  options: { readonly chrome?: boolean } = {},
) {
  const config = await loadCommandConfig(ctx.cwd, args, flags, ctx.env);
  const locales = targetLocales(config, flags);
  // A VitePress site's chrome: its English texts, read from the site's config, are the source catalog of
  // one of the files (written before the files are read).
  const site = options.chrome ? chromeSite(config) : undefined;
  let chrome: { site: string; source: string; english: SiteChrome } | undefined;
  if (site) {
    // The site's config imports the `locales.json` written below: it must exist for the config to load.
    const localesFile = join(dirname(site.source), 'locales.json');
    if (!existsSync(localesFile)) await writeLocalesPlaceholder(localesFile);
    try {
      chrome = { ...site, english: await readSiteChrome(site.site) };
      await writeChromeCatalog(chrome.source, chrome.english);
    } catch (error) {
      ctx.io.err(
        `glossa: ${relative(ctx.cwd, site.site) || '.'}: warning: nav, sidebar and theme labels left as they were: ${(error as Error).message}`,
      );
      // The catalog's entry still needs its file: an empty one until the site's config can be read.
      if (!existsSync(site.source)) await writeChromeCatalog(site.source, { themeConfig: {} }, false);
    }
  }
  const inputs = await collectInputs(config, args, ctx.cwd, locales);
  const project = await openProject(config, inputs);
  for (const w of project.warnings) ctx.io.err(`${w.file}:${w.line}:${w.column}: warning: ${w.reason}`);
  for (const f of project.failed) ctx.io.err(`${formatFileFailure(f)} (left out of this run)`);
  for (const { file, syntax, detected } of catalogSyntaxes(project))
    ctx.io.err(`glossa: ${file}: ${syntax} messages${detected ? ' (detected)' : ''}`);
  return { config, locales, project, chrome };
}

/** The message syntax of each JSON catalog of the run, and whether it was detected or configured. */
function catalogSyntaxes(project: Project) {
  return project.files.flatMap(({ input, extracted }) =>
    extracted.syntax
      ? [{ file: input.id, syntax: extracted.syntax.name, detected: extracted.syntax.detected }]
      : [],
  );
}

function runFor(
  project: Project,
  locale: string,
  resources: LocaleResources | undefined,
  env: NodeJS.ProcessEnv,
  extra: object = {},
  remote?: ReadonlyMap<string, string>,
) {
  const { service, sourceLang } = project.config;
  // The embedded server's engines and models for the locale: a change keys the cache anew. A remote
  // Glossa service tells its own per target (a header of its language list, `remote`); others do not.
  const fingerprint =
    service.url === undefined
      ? engineFingerprint(service.engines, sourceLang, locale, env)
      : remoteFingerprintOf(remote, locale);
  return createTranslationRun({
    sourceLang,
    targetLangs: [locale],
    concurrency: service.concurrency,
    ...(resources && { requestOptions: resources.requestOptions }),
    cacheKeyParts: {
      ...resources?.cacheKeyParts,
      ...(fingerprint !== undefined && { engineFingerprint: fingerprint }),
    },
    ...(project.lock && { lock: project.lock }),
    ...(project.config.doNotTranslate.length > 0 && { doNotTranslate: project.config.doNotTranslate }),
    ...extra,
  });
}

export async function translateCommand(
  ctx: CommandEnv,
  args: readonly string[],
  flags: TranslateFlags,
): Promise<number> {
  const { config, locales, project, chrome } = await prepare(ctx, args, flags, { chrome: true });
  const cache = await openCache(project);
  let service: Service | undefined;
  let keptSource: ReturnType<typeof keptSourceCheck> | undefined;
  let report: RunReport = emptyRunReport();
  const written: string[] = [];
  let unchangedFiles = 0;
  const problems: string[] = [];
  const failedFiles: FileFailure[] = [...project.failed];
  // Targets translated with words left in the source language: warnings, not failures. The service names
  // them when it translates (`left`); the lock keeps them with the output, for runs that send nothing.
  const left: LeftWordsItem[] = [];
  const leftWords: LeftWordsWarning[] = [];
  try {
    const remote =
      config.service.url !== undefined && ctx.translator === undefined
        ? await remoteEngineFingerprints(config.service)
        : undefined;
    const needsResources = config.glossaries.length + config.memories.length + config.styleLists.length > 0;
    if (needsResources && ctx.translator === undefined) service = await openService(config);
    const resources = service ? (await syncResources(service.client, config, locales)).perLocale : undefined;
    for (const locale of locales) {
      const existing = await readExistingTargets(project, locale);
      for (const path of existing.restructured) {
        ctx.io.err(
          `glossa: ${relative(ctx.cwd, path)} no longer matches its source's structure: translating it again (edits in it are not carried over)`,
        );
      }
      const input = { segments: project.segments, existingTargets: new Map([[locale, existing.targets]]) };
      pruneLock(project, locale);
      const withUntrackedEdits = filesWithUntrackedEdits(project, locale, existing.targets);
      const planned = await runFor(
        project,
        locale,
        resources?.get(locale),
        ctx.env,
        { cache },
        remote,
      ).estimate(input);
      if (planned.requests > 0 && service === undefined && ctx.translator === undefined)
        service = await openService(config);
      const progress = createProgress(ctx.io, locale, planned.requests);
      if (service) keptSource ??= keptSourceCheck(service, (item) => left.push(item));
      const run = runFor(
        project,
        locale,
        resources?.get(locale),
        ctx.env,
        {
          cache,
          onEvent: progress.onEvent,
          translator: ctx.translator ?? service?.client ?? NO_SERVICE,
          // Segments every engine failed come back in the source language: failures, not output.
          ...(keptSource && { keptSource }),
          // QA-critical targets (a code or placeholder moved, a broken expression) are failures, not output.
          qa: createQaCheck(evaluateSegments, {
            ...(config.sourceLang !== undefined && { sourceLang: config.sourceLang }),
            minSeverity: 'critical',
          }),
        },
        remote,
      );
      const result = await run.translate(input);
      report = addRunReports(report, result.report);
      leftWords.push(...localeLeftWords(project, locale, left, result.targets.get(locale)!, result.report));
      const failedBefore = failedFiles.length;
      const paths = await writeOutputs(
        project,
        locale,
        result.targets.get(locale)!,
        (p) => problems.push(`${p.file} [${locale}] ${p.key}: ${p.reason}`),
        (failure) => failedFiles.push(failure),
        (file, text) => {
          // An output that keeps a person's text the lock has no entry for is not marked as Glossa's:
          // that text must read as an edit in the next run too.
          if (!withUntrackedEdits.has(file.input.id)) project.lock?.recordOutput(locale, file.input.id, text);
        },
      );
      await project.lock?.save();
      written.push(...paths);
      // Files copied beside a page (its images) are written too, but they are not the project's files.
      const outputs = new Set(project.files.map((file) => file.input.outputFor(locale)));
      const outputsWritten = paths.filter((path) => outputs.has(path)).length;
      unchangedFiles += project.files.length - outputsWritten - (failedFiles.length - failedBefore);
    }
    // The site's `locales` entries, from the chrome catalogs just written.
    const siteLocales = chrome && (await writeLocales(chrome.source, chrome.english, locales));
    if (siteLocales) written.push(siteLocales);
  } finally {
    await cache.close();
    await service?.close();
  }
  if (flags.json) {
    ctx.io.out(
      JSON.stringify(
        {
          ...report,
          leftWords,
          written: written.map((p) => relative(ctx.cwd, p)),
          unchangedFiles,
          problems,
          failedFiles,
          catalogs: catalogSyntaxes(project),
        },
        null,
        2,
      ),
    );
  } else {
    for (const line of formatReport(report, locales)) ctx.io.out(line);
    for (const line of formatLeftWords(leftWords)) ctx.io.err(line);
    if (leftWords.length > 0) ctx.io.err(LEFT_WORDS_NOTE);
    for (const p of problems) ctx.io.out(`  merge problem: ${p}`);
    ctx.io.out(`failed files:       ${failedFiles.length}`);
    for (const failure of failedFiles) ctx.io.out(`  ${formatFileFailure(failure)}`);
    const kept = unchangedFiles > 0 ? `, ${unchangedFiles} already up to date` : '';
    ctx.io.out(`wrote ${written.length} file(s)${kept}${outputRoots(ctx.cwd, written)}`);
  }
  return report.failures.length + problems.length + failedFiles.length > 0 ? 1 : 0;
}

/**
 * `locale`'s targets translated with words left in the source language, in the project's order; a target
 * that failed (QA, echoed source) is a failure instead, not listed. The words the service named in this
 * run are recorded in the lock (saved with it), and with a lock every current target it holds words for
 * is listed, also those a run before made: a run that sends nothing warns as the first did.
 */
function localeLeftWords(
  project: Project,
  locale: string,
  left: readonly LeftWordsItem[],
  targets: ReadonlyMap<string, string>,
  report: RunReport,
): LeftWordsWarning[] {
  const failed = new Set(report.failures.filter((f) => f.locale === locale).map((f) => f.key));
  const fresh = new Map(left.filter((item) => item.locale === locale).map((item) => [item.key, item]));
  const lock = project.lock;
  if (lock) for (const [key, item] of fresh) if (!failed.has(key)) lock.recordLeft(locale, key, item.words);
  const source = [...fresh.values()][0]?.source || project.config.sourceLang || '';
  return leftWordsWarnings(project.segments, locale, source, (segment) =>
    failed.has(segment.key)
      ? []
      : lock
        ? lock.leftWords(locale, segment.key, segment.source, targets.get(segment.key))
        : (fresh.get(segment.key)?.words ?? []),
  );
}

/**
 * Forgets the lock entries of `locale` for segments the project's files no longer have (a paragraph
 * deleted, a front-matter field no longer translated): if the field comes back, its output holds the
 * source again, which must read as missing, not as a person's edit. Only the files of this run are
 * considered; files that failed to read keep their entries.
 */
function pruneLock(project: Project, locale: string): void {
  if (!project.lock) return;
  const ids = new Set(project.files.map((f) => f.input.id));
  project.lock.prune(
    locale,
    project.segments.map((s) => s.key),
    (key) => ids.has(key.slice(0, key.indexOf('#'))),
  );
}

/** Input file ids whose outputs hold a target, other than the source, that the lock has no entry for. */
function filesWithUntrackedEdits(
  project: Project,
  locale: string,
  targets: ReadonlyMap<string, string>,
): Set<string> {
  const files = new Set<string>();
  if (!project.lock) return files;
  const sources = new Map(project.segments.map((s) => [s.key, s.source]));
  for (const [key, target] of targets) {
    if (target !== sources.get(key) && project.lock.get(locale, key) === undefined) {
      const file = project.fileOfKey.get(key);
      if (file) files.add(file.input.id);
    }
  }
  return files;
}

function outputRoots(cwd: string, written: readonly string[]): string {
  if (written.length === 0) return '';
  const shown = written.slice(0, 6).map((p) => `  ${relative(cwd, p)}`);
  if (written.length > shown.length) shown.push(`  … and ${written.length - shown.length} more`);
  return `:\n${shown.join('\n')}`;
}

/** Price per million characters (MT) or tokens in/out (LLMs), USD; a provider's `price` setting wins. */
const DEFAULT_PRICES: Readonly<Record<string, EnginePrice>> = {
  deepl: { perMillionCharacters: 25 },
  google: { perMillionCharacters: 20 },
  openai: { inputPerMillionTokens: 0.15, outputPerMillionTokens: 0.6 },
  anthropic: { inputPerMillionTokens: 0.8, outputPerMillionTokens: 4 },
};
interface EnginePrice {
  readonly perMillionCharacters?: number;
  readonly inputPerMillionTokens?: number;
  readonly outputPerMillionTokens?: number;
}
const LLM_ENGINES = new Set(['openai', 'anthropic']);

/** Per locale of an estimate: the engines it goes to (first serves, the rest fall back) and the cost. */
interface LocaleCost {
  readonly locale: string;
  readonly engines: readonly string[];
  readonly characters: number;
  readonly tokensIn?: number;
  readonly tokensOut?: number;
  /** USD; undefined when the first engine has no price (local engines cost nothing: 0). */
  readonly cost?: number;
}

/**
 * The engines of `locale` as the embedded server will choose them (config `engines`, `GLOSSA_ENGINES`: the
 * pair, the target, its base language, then `default`), and what the characters to send would cost on the
 * first one. Tokens are estimated like the server batches them: ~3 bytes a token, the answer 1.5× the
 * segments, ~600 tokens of instructions per call of 2,730 segment tokens.
 */
function localeCost(project: Project, locale: string, characters: number): LocaleCost {
  const service = project.config.service;
  if (service.url !== undefined) return { locale, engines: ['(the service at its URL)'], characters };
  const pseudo = /^[a-z]{2}-X[A-Z]$/.test(locale);
  const listed = enginesFor(service.engines, project.config.sourceLang, locale);
  const engines = listed.filter((name) => (name === 'pseudo') === pseudo && name !== 'upstream');
  const first = engines[0];
  if (first === undefined) return { locale, engines: [], characters };
  const settings = service.engines?.providers?.[first] as { price?: EnginePrice; model?: string } | undefined;
  const price = settings?.price ?? DEFAULT_PRICES[first];
  const named = engines.map((name) => {
    const model = (service.engines?.providers?.[name] as { model?: string } | undefined)?.model;
    return model ? `${name} (${model})` : name;
  });
  if (LLM_ENGINES.has(first)) {
    const segmentTokens = Math.ceil(characters / 3);
    const tokensIn = segmentTokens + Math.ceil(segmentTokens / 2730) * 600;
    const tokensOut = Math.ceil(segmentTokens * 1.5);
    const cost =
      price?.inputPerMillionTokens === undefined
        ? undefined
        : (tokensIn * price.inputPerMillionTokens + tokensOut * (price.outputPerMillionTokens ?? 0)) / 1e6;
    return { locale, engines: named, characters, tokensIn, tokensOut, ...(cost !== undefined && { cost }) };
  }
  const cost =
    price?.perMillionCharacters === undefined
      ? DEFAULT_PRICES[first]
        ? undefined
        : 0
      : (characters * price.perMillionCharacters) / 1e6;
  return { locale, engines: named, characters, ...(cost !== undefined && { cost }) };
}

const formatLocaleCost = (item: LocaleCost) =>
  `  ${item.locale}: ${item.engines.join(' > ') || 'no engine'}: ${item.characters.toLocaleString('en')} characters` +
  (item.tokensIn === undefined
    ? ''
    : `, ~${item.tokensIn.toLocaleString('en')} tokens in, ~${item.tokensOut!.toLocaleString('en')} out`) +
  (item.cost === undefined ? '' : `, ~$${item.cost.toFixed(item.cost < 1 ? 4 : 2)}`);

export async function estimateCommand(
  ctx: CommandEnv,
  args: readonly string[],
  flags: TranslateFlags,
): Promise<number> {
  const { locales, project } = await prepare(ctx, args, flags, { chrome: true });
  const cache = await openCache(project);
  const totals: RunEstimate[] = [];
  // Retries are not planned: a text whose codes come back moved is sent once more (second encoding).
  // Only texts with inline codes can be, so their own estimate is the most the retries can add.
  const retryBounds: RunEstimate[] = [];
  const withCodes = project.segments.filter((s) => /<(?:x|g) id=/.test(s.source));
  const resources = await localResources(project.config, locales);
  // A remote service's engines key its outputs (see translate); unreachable: estimated without them.
  const remote =
    project.config.service.url !== undefined
      ? await remoteEngineFingerprints(project.config.service).catch(() => undefined)
      : undefined;
  try {
    for (const locale of locales) {
      const existing = await readExistingTargets(project, locale);
      const input = { segments: project.segments, existingTargets: new Map([[locale, existing.targets]]) };
      const run = runFor(project, locale, resources.perLocale.get(locale), ctx.env, { cache }, remote);
      totals.push(await run.estimate(input));
      retryBounds.push(await run.estimate({ ...input, segments: withCodes }));
    }
  } finally {
    await cache.close();
  }
  const sum = (pick: (e: RunEstimate) => number) => totals.reduce((s, e) => s + pick(e), 0);
  const estimate = {
    files: project.files.length,
    failedFiles: project.failed,
    catalogs: catalogSyntaxes(project),
    segments: sum((e) => e.segments),
    unchanged: sum((e) => e.unchanged),
    humanEdits: sum((e) => e.humanEdits),
    cacheHits: sum((e) => e.cacheHits),
    requests: sum((e) => e.requests),
    requestBytes: sum((e) => e.requestBytes),
    billedCharacters: sum((e) => e.billedCharacters),
    /** Not in the figures above: at most this much more, if every text with inline codes were retried. */
    retriesAtMost: {
      texts: retryBounds.reduce((s, e) => s + e.segments - e.unchanged - e.humanEdits - e.cacheHits, 0),
      requests: retryBounds.reduce((s, e) => s + e.requests, 0),
      billedCharacters: retryBounds.reduce((s, e) => s + e.billedCharacters, 0),
    },
    perLocale: locales.map((locale, index) => localeCost(project, locale, totals[index]!.billedCharacters)),
  };
  if (resources.unknown) {
    ctx.io.err(
      'glossa: memories and style lists are identified by the service: their cached targets count as misses here',
    );
  }
  if (flags.json) ctx.io.out(JSON.stringify(estimate, null, 2));
  else {
    ctx.io.out(`files:              ${estimate.files}`);
    ctx.io.out(`segments:           ${estimate.segments} (${locales.join(', ')})`);
    ctx.io.out(`  cache hits:       ${estimate.cacheHits}`);
    ctx.io.out(`  up to date:       ${estimate.unchanged}`);
    ctx.io.out(`  human edits kept: ${estimate.humanEdits}`);
    ctx.io.out(`requests:           ${estimate.requests} (${estimate.requestBytes} bytes)`);
    ctx.io.out(`billed characters:  ${estimate.billedCharacters}`);
    const retries = estimate.retriesAtMost;
    if (retries.texts > 0)
      ctx.io.out(
        `retries (not above): at most ${retries.requests} requests, ${retries.billedCharacters} billed characters, if all ${retries.texts} texts with inline codes came back with their codes moved`,
      );
    ctx.io.out('engines and cost per locale:');
    for (const item of estimate.perLocale) ctx.io.out(formatLocaleCost(item));
    ctx.io.out(`failed files:       ${project.failed.length}`);
    for (const failure of project.failed) ctx.io.out(`  ${formatFileFailure(failure)}`);
  }
  return project.failed.length > 0 ? 1 : 0;
}

export { where };
