/**
 * Local glossary files: TSV (`source<TAB>target`) or CSV (`source,target[,source_lang,target_lang]`,
 * RFC 4180 quoting). Parsed, checked and hashed by content so an unchanged file maps to the same
 * glossary on the service.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { contentHash } from '../cache/key.js';
import { ResourceSyncError } from '../errors.js';

export interface GlossaryTerm {
  readonly source: string;
  readonly target: string;
}

/** Splits CSV text into rows of fields (RFC 4180), with the 1-based line each row starts on. */
function csvRows(text: string, file: string): { line: number; fields: string[] }[] {
  const rows: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      rows.push({ line: rowLine, fields });
      fields = [];
      field = '';
      rowLine = ++line;
    } else field += c;
  }
  if (quoted) throw new ResourceSyncError(`${file}:${rowLine}: unterminated quoted field`);
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    rows.push({ line: rowLine, fields });
  }
  return rows;
}

/**
 * Reads a TSV or CSV glossary (by extension) for one language pair. CSV rows that name another pair
 * are skipped. Throws `ResourceSyncError` naming the file and line of an empty term or a duplicate.
 */
export function parseGlossary(
  text: string,
  file: string,
  pair?: { sourceLang: string; targetLang: string },
): GlossaryTerm[] {
  const format = extname(file).toLowerCase() === '.csv' ? 'csv' : 'tsv';
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text; // byte order mark of spreadsheet exports
  const rows =
    format === 'csv'
      ? csvRows(body, file)
      : body.split(/\r?\n/).map((row, i) => ({ line: i + 1, fields: row.split('\t') }));
  const terms: GlossaryTerm[] = [];
  const seen = new Map<string, number>();
  for (const { line, fields } of rows) {
    if (fields.every((f) => f.trim() === '')) continue;
    const [source = '', target = '', sourceLang, targetLang] = fields.map((f) => f.trim());
    if (pair && sourceLang && targetLang) {
      if (sourceLang.toLowerCase() !== pair.sourceLang.toLowerCase()) continue;
      if (targetLang.toLowerCase() !== pair.targetLang.toLowerCase()) continue;
    }
    if (source === '' || target === '')
      throw new ResourceSyncError(`${file}:${line}: empty ${source === '' ? 'source' : 'target'} term`);
    const previous = seen.get(source);
    if (previous !== undefined)
      throw new ResourceSyncError(
        `${file}:${line}: duplicate source term '${source}' (first on line ${previous})`,
      );
    seen.set(source, line);
    terms.push({ source, target });
  }
  if (terms.length === 0) throw new ResourceSyncError(`${file}: no glossary entries`);
  return terms;
}

/** Content hash of a glossary: independent of entry order, format and whitespace. */
export function glossaryHash(terms: readonly GlossaryTerm[]): string {
  return contentHash(
    terms
      .map((t) => `${t.source}\t${t.target}`)
      .sort()
      .join('\n'),
  );
}

export async function readGlossaryFile(file: string, pair?: { sourceLang: string; targetLang: string }) {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ResourceSyncError(`Cannot read glossary ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const terms = parseGlossary(text, file, pair);
  return { terms, hash: glossaryHash(terms) };
}
