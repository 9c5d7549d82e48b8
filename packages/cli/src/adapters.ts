/**
 * The file formats the CLI reads, each through its adapter: extract segments (keys prefixed with the
 * file's project path), read the targets already in an output, and write an output from targets.
 */
import type { AdapterName, MarkdownConfig, Segment } from '@glossa/core';
import { buildCatalog, extractCatalog } from '@glossa/i18next';
import * as rehype from '@glossa/rehype';
import * as remark from '@glossa/remark';
import { extractXliff, readXliffTargets, translateXliff } from '@glossa/xliff';
import { extractDocusaurusFile, readDocusaurusTargets } from './docusaurus-messages.js';
import type { Extracted, MessageSyntax } from './extracted.js';

export type { ContentMessage, Extracted, MessageSyntax, WriteProblem } from './extracted.js';

export interface Adapter {
  /** `markdown`: the config's `markdown` options (dialect, front-matter fields, MDX attributes). */
  /** `syntax`: JSON catalogs' message syntax from the config (unset: detected). */
  extract(text: string, id: string, markdown?: MarkdownConfig, syntax?: MessageSyntax): Extracted;
  /** Targets (by segment key) in an existing output, or `undefined` when its structure no longer matches. */
  readTargets(
    output: string,
    id: string,
    source: Extracted,
    markdown?: MarkdownConfig,
  ): Map<string, string> | undefined;
}

/** Targets of an output made by a positional adapter: usable only while the segment keys line up. */
function positionalTargets(output: readonly Segment[], source: Extracted): Map<string, string> | undefined {
  if (output.length !== source.segments.length) return undefined;
  const targets = new Map<string, string>();
  for (const [index, segment] of output.entries()) {
    if (segment.key !== source.segments[index]!.key) return undefined;
    targets.set(segment.key, segment.source);
  }
  return targets;
}

const markdown: Adapter = {
  extract(text, id, options = {}) {
    const extraction = remark.extract(text, { ...options, file: id });
    return {
      segments: extraction.segments,
      codes: extraction.codes,
      messages: extraction.messages,
      write: async (targets, _locale, onProblem) => remark.merge(extraction, targets, { onProblem }),
    };
  },
  readTargets: (output, id, source, options = {}) =>
    positionalTargets(remark.extract(output, { ...options, file: id }).segments, source),
};

const html: Adapter = {
  extract(text, id) {
    const extraction = rehype.extract(text, { file: id });
    return {
      segments: extraction.segments,
      codes: extraction.codes,
      messages: [],
      write: async (targets, locale, onProblem) =>
        rehype.merge(extraction, targets, { file: id, lang: locale, onProblem }),
    };
  },
  readTargets: (output, id, source) =>
    positionalTargets(rehype.extract(output, { file: id }).segments, source),
};

const xliff: Adapter = {
  extract(text, id) {
    // What translateXliff sends: units without a target, each ICU branch a segment, nothing that is not prose.
    const extraction = extractXliff(text);
    const segments = extraction.segments.map((segment) => ({ ...segment, key: `${id}#${segment.key}` }));
    const codes = Object.fromEntries(Object.entries(extraction.codes).map(([key, c]) => [`${id}#${key}`, c]));
    return {
      segments,
      codes,
      messages: [],
      async write(targets, locale, onProblem) {
        const result = await translateXliff(text, {
          targetLanguage: locale,
          translate: async (pending) => pending.map((s) => targets.get(`${id}#${s.key}`)),
        });
        for (const kept of result.kept) {
          if (kept.reason !== 'no translation') onProblem({ key: `${id}#${kept.key}`, reason: kept.reason });
        }
        return result.xliff;
      },
    };
  },
  readTargets(output, id) {
    return new Map([...readXliffTargets(output)].map(([key, target]) => [`${id}#${key}`, target]));
  },
};

/**
 * Where the value of `keyPath` starts in a catalog's text: the first `"<last key part>":` (nested keys of
 * the same name elsewhere can make it an earlier one); line 1, column 1 when not found.
 */
function keyPosition(text: string, keyPath: string): { line: number; column: number } {
  const last = keyPath.split('.').at(-1)!;
  const found = new RegExp(`${JSON.stringify(last).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`).exec(text);
  if (!found) return { line: 1, column: 1 };
  const before = text.slice(0, found.index).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/**
 * Whether `text` is a Docusaurus (or Chrome extension) translation file: every top-level value is an object
 * with a string `message`, and nothing but `message` and `description`.
 */
function translationNotes(text: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return false;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return false;
  const entries = Object.values(json);
  return (
    entries.length > 0 &&
    entries.every(
      (entry) =>
        entry !== null &&
        typeof entry === 'object' &&
        typeof (entry as { message?: unknown }).message === 'string' &&
        Object.keys(entry).every((k) => k === 'message' || k === 'description'),
    )
  );
}

/** i18next JSON v4 catalogs: keyed, so targets are read back by key; plurals follow the target locale. */
const i18next: Adapter = {
  extract(text, id, _markdown, syntax) {
    if (syntax === 'docusaurus') return extractDocusaurusFile(text, id);
    const extraction = extractCatalog(text, { file: id, ...(syntax !== undefined && { syntax }) });
    // Docusaurus's translation files (`docusaurus write-translations`): `{ key: { message, description } }`;
    // the description is a note to the translator, only the message is translated.
    const notes = translationNotes(text);
    return {
      segments: notes
        ? extraction.segments.filter((s) => !s.key.slice(s.key.indexOf('#') + 1).endsWith('.description'))
        : extraction.segments,
      codes: extraction.codes,
      // A value that does not parse in the file's syntax is sent as i18next text: said, with its place.
      messages: extraction.kept
        .filter((k) => k.reason === 'syntax')
        .map((k) => ({
          ...keyPosition(text, k.key.slice(k.key.indexOf('#') + 1)),
          reason: `${k.key.slice(k.key.indexOf('#') + 1)}: not ${extraction.syntax} (${k.message}); translated as plain i18next text`,
        })),
      syntax: { name: extraction.syntax, detected: extraction.syntaxDetected },
      async write(targets, locale, onProblem) {
        const catalog = buildCatalog(extraction, targets, {
          locale,
          onProblem: (p) => onProblem({ key: p.key, reason: p.reason }),
        });
        return `${JSON.stringify(catalog, null, 2)}\n`;
      },
    };
  },
  readTargets(output, id, source) {
    if (source.syntax?.name === 'docusaurus') return readDocusaurusTargets(output, id, source);
    const keys = new Set(source.segments.map((s) => s.key));
    // Read in the source's syntax: a translation can look like another one (its `|` or braces moved).
    return new Map(
      extractCatalog(output, { file: id, ...(source.syntax && { syntax: source.syntax.name }) })
        .segments.filter((s) => keys.has(s.key))
        .map((s) => [s.key, s.source]),
    );
  },
};

export const ADAPTERS: Readonly<Record<AdapterName, Adapter>> = { markdown, html, xliff, i18next };
