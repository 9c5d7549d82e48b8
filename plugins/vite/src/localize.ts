/**
 * Localizes HTML pages: every page's segments for every locale in one translation run (so the batcher
 * packs them into as few requests as possible), merged back with @glossa/rehype from one parse per page
 * (`<html lang>`/`dir` set, absolute links to localized pages pointed at the locale's page), then
 * `hreflang` alternates linking every language version of a page.
 */
import {
  createTranslationRun,
  emptyRunReport,
  type RunEvent,
  type RunFailure,
  type RunReport,
  type RunSegment,
  recordingCache,
  type TranslationRunOptions,
} from '@glossa/core';
import { extract, merge } from '@glossa/rehype';
import { MissingTranslationsError } from './errors.js';
import { type LinkOptions, linkEdits } from './links.js';
import type { Session } from './service.js';

export interface Page {
  /** Path relative to the output root, `/`-separated, e.g. `about/index.html`. */
  readonly path: string;
  readonly html: string;
}

export interface LocalizeOptions {
  readonly session: Session;
  readonly sourceLang: string;
  readonly locales: readonly string[];
  readonly cacheOnly: boolean;
  readonly requestOptions?: TranslationRunOptions['requestOptions'];
  /** Terms never translated, in any locale (the config's `doNotTranslate`). */
  readonly doNotTranslate?: readonly string[];
  readonly onEvent?: (event: RunEvent) => void;
  /** Absolute links to localized pages, pointed at the same locale's page. Default: left as written. */
  readonly links?: LinkOptions;
  /** The project's package name (package.json `name`): a page `<title>` that is exactly it stays. */
  readonly projectName?: string;
}

/**
 * A page `<title>` that names the project rather than describing the page, kept as written in every
 * locale: the package name (`options.projectName`, also without its `@scope/`) or a lower-case slug of
 * two or more parts (`tsr-app`, `my-vue-app`, `vite_project`), which is what scaffolds put there.
 * "Opening hours", "Shop" or "About us" are translated as before.
 */
export function isProjectTitle(key: string, source: string, projectName?: string): boolean {
  if (!/#title-\d+$/.test(key)) return false;
  const text = source.trim();
  if (projectName && (text === projectName || text === projectName.replace(/^@[^/]+\//, ''))) return true;
  return /^[a-z0-9]+(?:[-_.][a-z0-9]+)+$/.test(text);
}

export interface Localized {
  /** Per locale, per page path: the localized HTML (without alternates). */
  readonly pages: Map<string, Map<string, string>>;
  /** The run over the pages not in the result cache (an empty report when there were none). */
  readonly report: RunReport;
  /** Pages taken whole from the result cache (source, options and translations unchanged). */
  readonly reused: number;
  /** Segments whose translation could not be merged: they stay in the source language. */
  readonly problems: readonly RunFailure[];
}

export async function localizePages(pages: readonly Page[], options: LocalizeOptions): Promise<Localized> {
  const out = new Map(options.locales.map((locale) => [locale, new Map<string, string>()]));
  const results = options.session.results;
  const materialOf = (page: Page) => [
    'page',
    page.path,
    page.html,
    options.sourceLang,
    options.locales,
    options.requestOptions ?? {},
    options.doNotTranslate ?? [],
    options.links?.id ?? null,
    options.projectName ?? null,
  ];
  const cached = await Promise.all(pages.map((page) => results?.get(materialOf(page))));
  const todo = pages.filter((page, i) => {
    const outputs = cached[i];
    if (outputs === undefined) return true;
    for (const locale of options.locales) out.get(locale)!.set(page.path, outputs[locale]!);
    return false;
  });
  if (todo.length === 0) return { pages: out, report: emptyRunReport(), reused: pages.length, problems: [] };

  const extractions = todo.map((page) => ({ page, extraction: extract(page.html, { file: page.path }) }));
  const segments: RunSegment[] = extractions.flatMap(({ page, extraction }) =>
    extraction.segments
      .filter((segment) => !isProjectTitle(segment.key, segment.source, options.projectName))
      .map((segment) => ({ ...segment, file: page.path })),
  );
  const recording = recordingCache(options.session.cache);
  const run = createTranslationRun({
    translator: options.session.translator,
    cache: recording.cache,
    sourceLang: options.sourceLang,
    targetLangs: options.locales,
    ...(options.requestOptions && { requestOptions: options.requestOptions }),
    ...(options.doNotTranslate && { doNotTranslate: options.doNotTranslate }),
    ...(options.onEvent && { onEvent: options.onEvent }),
  });
  const { targets, report } = await run.translate({ segments });
  if (options.cacheOnly && report.failures.length > 0) throw new MissingTranslationsError(report.failures);

  const problems: RunFailure[] = [];
  for (const { page, extraction } of extractions) {
    const outputs: Record<string, string> = {};
    const before = problems.length;
    for (const locale of options.locales) {
      outputs[locale] = merge(extraction, targets.get(locale)!, {
        file: page.path,
        lang: locale,
        ...(options.links && { edits: linkEdits(extraction.tree, locale, options.links) }),
        onProblem: (p) => problems.push({ locale, key: p.key, file: page.path, reason: p.reason }),
      });
      out.get(locale)!.set(page.path, outputs[locale]);
    }
    // A page with a failure or problem is made again next time (its source text stands in).
    const clean = problems.length === before && !report.failures.some((f) => f.file === page.path);
    if (results && clean) await results.set(materialOf(page), outputs, recording.used);
  }
  return { pages: out, report, reused: pages.length - todo.length, problems };
}

export interface Alternate {
  readonly lang: string;
  readonly href: string;
}

/** Adds `<link rel="alternate" hreflang>` for every version (and `x-default`) before `</head>`. */
export function withAlternates(html: string, alternates: readonly Alternate[], defaultHref: string): string {
  const at = html.search(/<\/head\s*>/i);
  if (at < 0) return html; // a fragment without <head>: nowhere standard to put them
  const indent = /\n([ \t]*)<\/head/i.exec(html)?.[1] ?? '';
  const links = [...alternates, { lang: 'x-default', href: defaultHref }]
    .map((a) => `${indent}  <link rel="alternate" hreflang="${a.lang}" href="${escapeAttribute(a.href)}">\n`)
    .join('');
  const before = html.slice(0, at).replace(/[ \t]*$/, '');
  return `${before}${links}${indent}${html.slice(at)}`;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** One line for Vite's logger. */
export function describeReport(
  report: RunReport,
  pages: number,
  locales: readonly string[],
  reused = 0,
): string {
  const s = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
  return (
    `glossa: ${s(pages, 'page')} × ${locales.join(', ')}: ${reused} unchanged (result cache), ` +
    `${s(report.segments, 'segment')}, ` +
    `${report.cacheHits} from cache, ${report.translated} translated in ${s(report.requests, 'request')} ` +
    `(${s(report.billedCharacters, 'billed character')}), ${s(report.failures.length, 'failure')} ` +
    `in ${Math.round(report.durationMs)} ms`
  );
}
