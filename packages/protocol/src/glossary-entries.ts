import { MAX_GLOSSARY_BYTES, MAX_GLOSSARY_TERM_BYTES } from './limits.js';

export const ENTRIES_FORMATS = ['tsv', 'csv'] as const;
export type EntriesFormat = (typeof ENTRIES_FORMATS)[number];

export interface GlossaryEntry {
  readonly source: string;
  readonly target: string;
}

export type GlossaryEntriesResult =
  | { readonly ok: true; readonly entries: GlossaryEntry[] }
  | { readonly ok: false; readonly message: string; readonly detail: string };

/** C0 and C1 control characters, and the Unicode line and paragraph separators. */
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
/**
 * The forbidden characters that `trim()` would remove from the ends of a term: refused in the raw field,
 * so that none is silently dropped. Tab and carriage return stay allowed as padding (TSV's separator and
 * a stray line ending); inside a term they are refused like every other control character.
 */
const FORBIDDEN_PADDING = /[\u000b\u000c\u2028\u2029]/u;

/** The length of `text` in UTF-8 bytes, without Node's Buffer (the package also runs in browsers). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4; // a surrogate pair: one code point above U+FFFF
      i++;
    } else bytes += 3; // the rest of the BMP, and a lone surrogate (encoded as U+FFFD)
  }
  return bytes;
}

/** The name rule: non-empty, at most 1024 UTF-8 bytes. Returns the message, or `undefined`. */
export function checkGlossaryName(name: string): string | undefined {
  if (name.trim().length === 0) return "Parameter 'name' must not be empty.";
  if (utf8Length(name) > MAX_GLOSSARY_TERM_BYTES) {
    return `Parameter 'name' is too long (at most ${MAX_GLOSSARY_TERM_BYTES} UTF-8 bytes).`;
  }
  return undefined;
}

/** Split one CSV record (RFC 4180 quoting, on a single line); `undefined` when the quoting is broken. */
function splitCsvLine(line: string): string[] | undefined {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char !== '"') field += char;
      else if (line[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === ',') {
      fields.push(field);
      field = '';
      wasQuoted = false;
    } else if (char === '"' && field.length === 0 && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
    } else if (wasQuoted) {
      return undefined;
    } else field += char;
  }
  if (quoted) return undefined;
  fields.push(field);
  return fields;
}

function fail(line: number, problem: string): GlossaryEntriesResult {
  return { ok: false, message: 'Invalid glossary entries.', detail: `Line ${line}: ${problem}` };
}

/**
 * Parse glossary entries as the wire decisions define them. TSV: `source<TAB>target` per line. CSV:
 * `source,target[,source_lang,target_lang]` with RFC 4180 quoting; language columns, when present, must
 * name the dictionary's pair. Blank lines are skipped; terms are trimmed. Refused, with a `detail` naming
 * the line: a missing column, an empty term, a control character or U+2028/2029 (also at the end of a
 * term, where trimming would drop it; tab and carriage return aside), a duplicate source, a term over
 * 1024 UTF-8 bytes; and entries over 10 MiB in all.
 */
export function parseGlossaryEntries(
  text: string,
  format: EntriesFormat,
  pair?: { readonly source_lang: string; readonly target_lang: string },
): GlossaryEntriesResult {
  if (utf8Length(text) > MAX_GLOSSARY_BYTES) {
    return {
      ok: false,
      message: 'Glossary too large.',
      detail: `Entries exceed ${MAX_GLOSSARY_BYTES} bytes.`,
    };
  }
  const entries: GlossaryEntry[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    const number = index + 1;
    if (line.trim().length === 0) continue;
    const fields = format === 'tsv' ? line.split('\t') : splitCsvLine(line);
    if (!fields) return fail(number, 'broken CSV quoting.');
    const expected = format === 'tsv' ? [2] : [2, 4];
    if (!expected.includes(fields.length)) {
      return fail(
        number,
        `expected ${format === 'tsv' ? 'source<TAB>target' : 'source,target[,source_lang,target_lang]'}.`,
      );
    }
    const [rawSource, rawTarget] = fields as [string, string];
    const [source, target] = [rawSource.trim(), rawTarget.trim()];
    for (const [side, raw, term] of [
      ['source', rawSource, source],
      ['target', rawTarget, target],
    ] as const) {
      if (FORBIDDEN.test(term) || FORBIDDEN_PADDING.test(raw)) {
        return fail(number, `${side} term contains a control or separator character.`);
      }
      if (term.length === 0) return fail(number, `empty ${side} term.`);
      if (utf8Length(term) > MAX_GLOSSARY_TERM_BYTES) {
        return fail(number, `${side} term is longer than ${MAX_GLOSSARY_TERM_BYTES} UTF-8 bytes.`);
      }
    }
    if (fields.length === 4 && pair) {
      const [sourceLang, targetLang] = fields.slice(2).map((field) => field.trim().toLowerCase());
      if (sourceLang !== pair.source_lang.toLowerCase() || targetLang !== pair.target_lang.toLowerCase()) {
        return fail(number, `language columns do not match ${pair.source_lang}-${pair.target_lang}.`);
      }
    }
    if (seen.has(source)) return fail(number, `duplicate source term '${source}'.`);
    seen.add(source);
    entries.push({ source, target });
  }
  if (entries.length === 0) return { ok: false, message: 'Invalid glossary entries.', detail: 'No entries.' };
  return { ok: true, entries };
}

/** Entries as TSV, one `source<TAB>target` per line (the format of every entries response). */
export function formatGlossaryEntries(entries: readonly GlossaryEntry[]): string {
  return entries.map((entry) => `${entry.source}\t${entry.target}`).join('\n');
}
