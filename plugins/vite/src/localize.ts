/**
 * Localizes HTML pages: every page's segments for every locale in one translation run (so the batcher
 * packs them into as few requests as possible), merged back with @glossa/rehype (`<html lang>`/`dir`
 * set), then `hreflang` alternates linking every language version of a page.
 */
import {
  createTranslationRun,
  type RunEvent,
  type RunFailure,
  type RunReport,
  type RunSegment,
  type TranslationRunOptions,
} from '@glossa/core';
import { extract, merge } from '@glossa/rehype';
import { MissingTranslationsError } from './errors.js';
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
  readonly onEvent?: (event: RunEvent) => void;
}

export interface Localized {
  /** Per locale, per page path: the localized HTML (without alternates). */
  readonly pages: Map<string, Map<string, string>>;
  readonly report: RunReport;
  /** Segments whose translation could not be merged: they stay in the source language. */
  readonly problems: readonly RunFailure[];
}

export async function localizePages(pages: readonly Page[], options: LocalizeOptions): Promise<Localized> {
  const extractions = pages.map((page) => ({ page, extraction: extract(page.html, { file: page.path }) }));
  const segments: RunSegment[] = extractions.flatMap(({ page, extraction }) =>
    extraction.segments.map((segment) => ({ ...segment, file: page.path })),
  );
  const run = createTranslationRun({
    translator: options.session.translator,
    cache: options.session.cache,
    sourceLang: options.sourceLang,
    targetLangs: options.locales,
    ...(options.requestOptions && { requestOptions: options.requestOptions }),
    ...(options.onEvent && { onEvent: options.onEvent }),
  });
  const { targets, report } = await run.translate({ segments });
  if (options.cacheOnly && report.failures.length > 0) throw new MissingTranslationsError(report.failures);

  const out = new Map<string, Map<string, string>>();
  const problems: RunFailure[] = [];
  for (const locale of options.locales) {
    const localeTargets = targets.get(locale)!;
    const localePages = new Map<string, string>();
    for (const { page, extraction } of extractions) {
      const html = merge(extraction, localeTargets, {
        file: page.path,
        lang: locale,
        onProblem: (p) => problems.push({ locale, key: p.key, file: page.path, reason: p.reason }),
      });
      localePages.set(page.path, html);
    }
    out.set(locale, localePages);
  }
  return { pages: out, report, problems };
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
export function describeReport(report: RunReport, pages: number, locales: readonly string[]): string {
  const s = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
  return (
    `glossa: ${s(pages, 'page')} × ${locales.join(', ')}: ${s(report.segments, 'segment')}, ` +
    `${report.cacheHits} from cache, ${report.translated} translated in ${s(report.requests, 'request')} ` +
    `(${s(report.billedCharacters, 'billed character')}), ${s(report.failures.length, 'failure')} ` +
    `in ${Math.round(report.durationMs)} ms`
  );
}
