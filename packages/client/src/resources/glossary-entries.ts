/**
 * Glossary entries as data. Callers pass `{source, target}[]` or a `Map`; the client encodes them as TSV.
 * Entries come back decoded from the TSV the service sends. A ready-made TSV or CSV text can be passed
 * through with `{ text, format }`.
 */
import { MAX_GLOSSARY_TERM_BYTES, parseGlossaryEntries } from '@glossa/protocol';
import { GlossaError } from '../errors.js';

export interface GlossaryEntry {
  source: string;
  target: string;
}

/** Entries as the caller gives them. */
export type GlossaryEntries =
  | readonly GlossaryEntry[]
  | ReadonlyMap<string, string>
  | { readonly text: string; readonly format: 'tsv' | 'csv' };

/** C0 and C1 control characters (tab and newlines included) and U+2028/U+2029: the service refuses them. */
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

function checkTerm(term: unknown, side: 'source' | 'target', index: number): string {
  if (typeof term !== 'string') throw new TypeError(`Glossary entry ${index + 1}: ${side} must be a string`);
  const trimmed = term.trim();
  if (trimmed === '') throw new RangeError(`Glossary entry ${index + 1}: empty ${side} term`);
  if (FORBIDDEN.test(trimmed)) {
    throw new RangeError(
      `Glossary entry ${index + 1}: ${side} term holds a control or line-separator character`,
    );
  }
  if (Buffer.byteLength(trimmed, 'utf8') > MAX_GLOSSARY_TERM_BYTES) {
    throw new RangeError(
      `Glossary entry ${index + 1}: ${side} term is over ${MAX_GLOSSARY_TERM_BYTES} UTF-8 bytes`,
    );
  }
  return trimmed;
}

/** Encode entries for the wire: `{entries, entries_format}`. Throws a `RangeError` naming a bad entry. */
export function encodeGlossaryEntries(entries: GlossaryEntries): {
  entries: string;
  entries_format: 'tsv' | 'csv';
} {
  if (typeof entries === 'object' && entries !== null && 'text' in entries && 'format' in entries) {
    if (entries.format !== 'tsv' && entries.format !== 'csv') {
      throw new TypeError(`Expected entries format 'tsv' or 'csv', got ${String(entries.format)}`);
    }
    return { entries: entries.text, entries_format: entries.format };
  }
  const list: GlossaryEntry[] =
    entries instanceof Map
      ? [...entries].map(([source, target]) => ({ source, target }))
      : Array.isArray(entries)
        ? (entries as GlossaryEntry[])
        : [];
  if (list.length === 0) throw new TypeError('Expected at least one glossary entry');
  const seen = new Set<string>();
  const lines = list.map((entry, index) => {
    const source = checkTerm(entry?.source, 'source', index);
    const target = checkTerm(entry?.target, 'target', index);
    if (seen.has(source))
      throw new RangeError(`Glossary entry ${index + 1}: duplicate source term '${source}'`);
    seen.add(source);
    return `${source}\t${target}`;
  });
  return { entries: lines.join('\n'), entries_format: 'tsv' };
}

/** Decode TSV entries (`source<TAB>target` per line) as the service sends them. */
export function decodeGlossaryEntries(tsv: string): GlossaryEntry[] {
  const entries: GlossaryEntry[] = [];
  for (const [index, line] of tsv.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    const tab = line.indexOf('\t');
    if (tab < 0) {
      throw new GlossaError(`Glossary entries from the service: line ${index + 1} has no tab`, {
        code: 'invalid_response',
      });
    }
    entries.push({ source: line.slice(0, tab), target: line.slice(tab + 1) });
  }
  return entries;
}

/** Entries as a `Map` from source term to target term. */
export function glossaryEntriesToMap(entries: readonly GlossaryEntry[]): Map<string, string> {
  return new Map(entries.map((entry) => [entry.source, entry.target]));
}

/**
 * Read a TSV or CSV glossary file (`source<TAB>target`, or `source,target[,source_lang,target_lang]` with
 * RFC 4180 quoting) into entries, by the same rules the service applies. Throws a `RangeError` naming the
 * line of the first problem.
 */
export function parseGlossaryFile(text: string, format: 'tsv' | 'csv'): GlossaryEntry[] {
  if (format !== 'tsv' && format !== 'csv') {
    throw new TypeError(`Expected format 'tsv' or 'csv', got ${JSON.stringify(format)}`);
  }
  const result = parseGlossaryEntries(text, format);
  if (!result.ok) throw new RangeError(`${result.message} ${result.detail}`);
  return result.entries.map((entry) => ({ source: entry.source, target: entry.target }));
}

/** Entries as CSV, one `source,target` record per line, quoted where needed (RFC 4180). */
export function formatGlossaryCsv(entries: readonly GlossaryEntry[]): string {
  const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  return entries.map((entry) => `${field(entry.source)},${field(entry.target)}`).join('\n');
}
