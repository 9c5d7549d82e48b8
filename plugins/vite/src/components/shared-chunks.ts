/**
 * Lean locale output: a locale costs its text, not a copy of the app. A locale build's chunk is
 * compared with the source build's chunk made of the same modules; when they differ only in string
 * literals and template text (the translations, `import.meta.env.BASE_URL`, the file names of chunks
 * that stay per locale), the source chunk is kept for every locale with each of those strings read
 * from a per-locale dictionary: `$gT(7,"Add to cart")` returns entry 7 of `globalThis.__glossa`, or the
 * English value when the page set none (the English pages) or the entry is `null` (same as English).
 * Numbers are read the same way (a development build's JSX positions move with the text). A string with
 * markup (Svelte's templates, Vue's static nodes) whose markup is the same in every locale keeps the
 * markup in the chunk and looks up only its text parts: `"<p>"+$gT(3,"Hello")+"</p>"`.
 * Each locale's pages load its dictionary (`assets/glossa-text.<locale>-<hash>.js`, a classic script
 * that runs before the app's modules). A locale whose chunk differs in anything else (a translation that
 * reorders elements, a minifier that folded a translated string) keeps its own copy of that chunk, with
 * the shared chunks' file names written into it; the other locales still share the English chunk.
 */
import { createHash } from 'node:crypto';

/** A built chunk: its file, its code, and which modules it is made of (its identity across builds). */
/** A build's files by name: text (chunks, pages, styles) or bytes. */
export type BuiltFiles = Map<string, string | Uint8Array>;

export interface BuiltChunk {
  readonly fileName: string;
  readonly code: string;
  readonly modules: string;
}

/** One locale build's output: every file (pages already at their locale path), and its chunks. */
export interface LocaleOutput {
  readonly locale: string;
  readonly files: BuiltFiles;
  readonly chunks: readonly BuiltChunk[];
}

export interface SharedOutput {
  /** Source chunk file → its code with lookups (every locale and the English pages load it). */
  readonly rewrites: Map<string, string>;
  /** Per locale: the files it adds (pages, its dictionary, chunks that stay per locale). */
  readonly files: Map<string, BuiltFiles>;
  /** Figures for the build log. */
  readonly stats: { shared: number; perLocale: number; copies: number; lookups: number };
}

/** A chunk's program, or undefined when it does not parse (then it is not shared). */
type Parse = (code: string) => unknown;

type Value = string | number;

interface Difference {
  readonly kind: 'literal' | 'quasi';
  readonly start: number;
  readonly end: number;
  /** The English value (a template quasi's cooked text; a literal's value). */
  readonly english: Value;
  readonly value: Value;
}

/** Where a string literal cannot become a call: keys, module specifiers, directives. */
const FIXED_FIELDS: Record<string, readonly string[]> = {
  ImportDeclaration: ['source'],
  ExportNamedDeclaration: ['source'],
  ExportAllDeclaration: ['source'],
  ImportSpecifier: ['imported', 'local'],
  ExportSpecifier: ['local', 'exported'],
  ImportAttribute: ['key', 'value'],
};
const KEYED = new Set(['Property', 'MethodDefinition', 'PropertyDefinition', 'AccessorProperty']);
const SKIP = new Set(['start', 'end', 'range', 'loc', 'raw']);

class Structural extends Error {}

/**
 * The string differences between two parsed programs of the same shape (positions of `a`), or
 * `undefined` when they differ in anything else.
 */
export function stringDifferences(a: unknown, b: unknown): Difference[] | undefined {
  const out: Difference[] = [];
  try {
    compare(a, b, undefined, undefined, { out, names: new Map(), back: new Map() });
  } catch (error) {
    if (error instanceof Structural) return undefined;
    throw error;
  }
  return out;
}

type Node = { type: string; start: number; end: number; [k: string]: unknown };

/**
 * What a comparison found: the string differences, and the local names of `a` and `b` paired one to one
 * (esbuild, the minifier of Vite 5–7, names variables by the characters of the file, strings included,
 * so a locale's chunk may call the same variable by another name).
 */
interface Found {
  readonly out: Difference[];
  readonly names: Map<string, string>;
  readonly back: Map<string, string>;
}

function compare(a: unknown, b: unknown, parent: Node | undefined, field: string | undefined, found: Found) {
  const { out } = found;
  if (a === b) return;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) throw new Structural();
    for (let i = 0; i < a.length; i++) compare(a[i], b[i], parent, field, found);
    return;
  }
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') throw new Structural();
  const x = a as Node;
  const y = b as Node;
  if (x.type !== y.type) throw new Structural();
  if (x.type === 'Identifier' && x.name !== y.name) {
    // A property's or an export's name is part of the program; a local name may differ, one to one.
    if (!parent || !field || named(parent, field)) throw new Structural();
    const name = x.name as string;
    const other = y.name as string;
    if ((found.names.get(name) ?? other) !== other || (found.back.get(other) ?? name) !== name) {
      throw new Structural();
    }
    found.names.set(name, other);
    found.back.set(other, name);
    return;
  }
  if (x.type === 'Identifier' && !(parent && field && named(parent, field))) {
    const name = x.name as string;
    if (found.names.has(name) && found.names.get(name) !== name) throw new Structural();
    if (found.back.has(name) && found.back.get(name) !== name) throw new Structural();
    found.names.set(name, name);
    found.back.set(name, name);
  }
  if (x.type === 'Literal') {
    const value = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
    if (value(x.value) && value(y.value) && !x.regex && !y.regex && !x.bigint && !y.bigint) {
      // Numbers too: a development build's JSX positions (`lineNumber`) move with the text.
      if (x.value === y.value) return;
      if (!parent || !field || fixed(parent, field)) throw new Structural();
      out.push({
        kind: 'literal',
        start: x.start,
        end: x.end,
        english: x.value as Value,
        value: y.value as Value,
      });
      return;
    }
    if (x.raw !== y.raw) throw new Structural();
    return;
  }
  if (
    x.type === 'TemplateLiteral' &&
    (x.expressions as unknown[]).length === 0 &&
    (y.expressions as unknown[]).length === 0 &&
    !(parent?.type === 'TaggedTemplateExpression' && field === 'quasi')
  ) {
    // A template without expressions is a string (minifiers write strings so): one lookup for all of it.
    const cx = (x.quasis as { value: { cooked: string | null } }[])[0]!.value.cooked;
    const cy = (y.quasis as { value: { cooked: string | null } }[])[0]!.value.cooked;
    if (cx === cy) return;
    if (cx === null || cy === null || !parent || !field || fixed(parent, field)) throw new Structural();
    out.push({ kind: 'literal', start: x.start, end: x.end, english: cx, value: cy });
    return;
  }
  if (x.type === 'TemplateElement') {
    const cx = (x.value as { cooked: string | null }).cooked;
    const cy = (y.value as { cooked: string | null }).cooked;
    if (cx === cy) return;
    if (cx === null || cy === null) throw new Structural();
    out.push({ kind: 'quasi', start: x.start, end: x.end, english: cx, value: cy });
    return;
  }
  for (const key of Object.keys(x)) {
    if (SKIP.has(key)) continue;
    const vx = x[key];
    const vy = y[key];
    if (vx !== null && typeof vx === 'object') compare(vx, vy, x, key, found);
    else if (vx !== vy) throw new Structural();
  }
}

function named(parent: Node, field: string): boolean {
  if (parent.type === 'MemberExpression' && field === 'property' && !parent.computed) return true;
  if (KEYED.has(parent.type) && field === 'key' && !parent.computed) return true;
  if (parent.type === 'ImportSpecifier' && field === 'imported') return true;
  if (parent.type === 'ExportSpecifier' && field === 'exported') return true;
  return false;
}

function fixed(parent: Node, field: string): boolean {
  if (KEYED.has(parent.type) && field === 'key' && !parent.computed) return true;
  if (parent.type === 'ExpressionStatement' && typeof parent.directive === 'string') return true;
  return FIXED_FIELDS[parent.type]?.includes(field) ?? false;
}

/**
 * Shares the chunks every locale can read from a dictionary; `assetsUrl` is where `assetsDir` is
 * served from (`/assets/`), `assetsDir` where the dictionaries are written.
 */
export function shareChunks(
  source: readonly BuiltChunk[],
  outputs: readonly LocaleOutput[],
  options: { parse: Parse; assetsDir: string; assetsUrl: string },
): SharedOutput {
  const byModules = new Map(source.map((c) => [c.modules, c]));
  // Per source chunk: its counterpart in each locale (a chunk no locale build made alike stays apart).
  const counterparts = new Map<string, Map<string, BuiltChunk>>();
  for (const out of outputs) {
    for (const chunk of out.chunks) {
      const original = byModules.get(chunk.modules);
      if (!original) continue;
      const byLocale = counterparts.get(original.fileName) ?? new Map<string, BuiltChunk>();
      counterparts.set(original.fileName, byLocale);
      byLocale.set(out.locale, chunk);
    }
  }
  // Per chunk, the locales that share it: a locale whose chunk differs in more than strings keeps its
  // own copy, and the others still share the English chunk (one reordered sentence in one locale no
  // longer makes every locale copy the app's chunk).
  const sharers = new Map<string, Set<string>>(
    [...counterparts]
      .filter(([, byLocale]) => byLocale.size === outputs.length)
      .map(([name]) => [name, new Set(outputs.map((o) => o.locale))]),
  );
  const sharedBy = (name: string, locale: string) => sharers.get(name)?.has(locale) ?? false;
  const sourceOf = new Map(source.map((c) => [c.fileName, c]));
  const parsed = new Map<string, unknown>();
  const parseOnce = (code: string) => {
    if (!parsed.has(code)) parsed.set(code, options.parse(code));
    return parsed.get(code);
  };
  // The locale's file names of the chunks it shares → the source's: written into its pages and other chunks.
  const renamer = (locale: string) => {
    const pairs: [string, string][] = [];
    for (const name of sharers.keys()) {
      if (!sharedBy(name, locale)) continue;
      const theirs = counterparts.get(name)!.get(locale)!.fileName;
      if (theirs !== name) pairs.push([baseName(theirs), baseName(name)]);
    }
    return (text: string) => {
      let out = text;
      for (const [from, to] of pairs) out = out.split(from).join(to);
      return out;
    };
  };
  // A locale stops sharing a chunk when its chunk differs in more than strings; its chunks that import
  // that one then differ in its name, so the check runs again until nothing changes.
  let differences = new Map<string, Map<string, Difference[]>>();
  for (let changed = true; changed; ) {
    changed = false;
    differences = new Map();
    const renames = new Map(outputs.map((o) => [o.locale, renamer(o.locale)]));
    for (const [name, locales] of [...sharers]) {
      const original = sourceOf.get(name)!;
      const perLocale = new Map<string, Difference[]>();
      for (const out of outputs) {
        if (!locales.has(out.locale)) continue;
        const code = renames.get(out.locale)!(counterparts.get(name)!.get(out.locale)!.code);
        if (code === original.code) continue;
        const a = parseOnce(original.code);
        const b = parseOnce(code);
        const found = a && b ? stringDifferences(a, b) : undefined;
        if (!found) {
          locales.delete(out.locale);
          changed = true;
          continue;
        }
        perLocale.set(out.locale, found);
      }
      if (locales.size === 0) sharers.delete(name);
      else differences.set(name, perLocale);
    }
  }

  // One index per string position of a shared chunk, in file and position order.
  const rewrites = new Map<string, string>();
  const dictionaries = new Map<string, (Value | null)[]>(outputs.map((o) => [o.locale, []]));
  let lookups = 0;
  // One dictionary entry: each locale's value, in the order of `outputs`.
  const entry = (values: readonly (Value | null)[]) => {
    for (const [i, out] of outputs.entries()) dictionaries.get(out.locale)!.push(values[i] ?? null);
  };
  for (const name of [...differences.keys()].sort()) {
    const positions = new Map<number, Difference>();
    for (const found of differences.get(name)!.values()) for (const d of found) positions.set(d.start, d);
    if (positions.size === 0) continue;
    const original = sourceOf.get(name)!.code;
    const call = freeName(original);
    const edits: { start: number; end: number; text: string }[] = [];
    for (const d of [...positions.values()].sort((p, q) => p.start - q.start)) {
      const values = outputs.map(
        (out) =>
          differences
            .get(name)!
            .get(out.locale)
            ?.find((e) => e.start === d.start)?.value ?? null,
      );
      const parts = textParts(d.english, values);
      if (parts) {
        // Markup that every locale shares stays in the chunk; only the text parts are looked up.
        const pieces = parts.map((part) => {
          if (typeof part === 'string') return { markup: part };
          const index = lookups++;
          entry(part.values);
          return { index, english: part.english };
        });
        const text =
          d.kind === 'literal'
            ? `(${pieces.map((p) => ('markup' in p ? JSON.stringify(p.markup) : `${call}(${p.index},${JSON.stringify(p.english)})`)).join('+')})`
            : pieces
                .map((p) =>
                  'markup' in p ? rawQuasi(p.markup) : `\${${call}(${p.index},${JSON.stringify(p.english)})}`,
                )
                .join('');
        edits.push({ start: d.start, end: d.end, text });
        continue;
      }
      const index = lookups++;
      entry(values);
      edits.push(
        d.kind === 'literal'
          ? { start: d.start, end: d.end, text: `${call}(${index},${original.slice(d.start, d.end)})` }
          : { start: d.start, end: d.end, text: `\${${call}(${index},${JSON.stringify(d.english)})}` },
      );
    }
    let code = original;
    for (const e of edits.reverse()) code = code.slice(0, e.start) + e.text + code.slice(e.end);
    rewrites.set(name, withLookup(code, call));
  }

  const files = new Map<string, BuiltFiles>();
  for (const out of outputs) {
    const rename = renamer(out.locale);
    const sharedHere = new Set(
      [...sharers.keys()]
        .filter((n) => sharedBy(n, out.locale))
        .map((n) => counterparts.get(n)!.get(out.locale)!.fileName),
    );
    const chunkNames = new Set(out.chunks.map((c) => c.fileName));
    const mine: BuiltFiles = new Map();
    let dictionaryUrl: string | undefined;
    // A locale that shares no chunk with lookups (all its entries `null`) needs no dictionary.
    if (dictionaries.get(out.locale)!.some((v) => v !== null)) {
      const body = `globalThis.__glossa=${JSON.stringify(dictionaries.get(out.locale)!).replace(/</g, '\\u003c')};\n`;
      const hash = createHash('sha256').update(body).digest('base64url').slice(0, 8);
      const file = `${options.assetsDir ? `${options.assetsDir}/` : ''}glossa-text.${out.locale}-${hash}.js`;
      mine.set(file, body);
      dictionaryUrl = `${options.assetsUrl}glossa-text.${out.locale}-${hash}.js`;
    }
    for (const [name, content] of out.files) {
      if (sharedHere.has(name)) continue;
      if (typeof content !== 'string' || !(chunkNames.has(name) || name.endsWith('.html'))) {
        mine.set(name, content);
        continue;
      }
      let text = rename(content);
      if (name.endsWith('.html') && dictionaryUrl) text = withDictionary(text, dictionaryUrl);
      mine.set(name, text);
    }
    files.set(out.locale, mine);
  }
  return {
    rewrites,
    files,
    stats: {
      shared: sharers.size,
      perLocale: counterparts.size - sharers.size,
      copies: [...counterparts.keys()].reduce(
        (n, name) => n + outputs.length - (sharers.get(name)?.size ?? 0),
        0,
      ),
      lookups,
    },
  };
}

/** Whether a locale build can share chunks: the dictionary is loaded by its pages, so it needs pages. */
export function canShare(outputs: readonly LocaleOutput[]): boolean {
  return outputs.every((o) => [...o.files.keys()].some((name) => name.endsWith('.html')));
}

const baseName = (file: string) => file.slice(file.lastIndexOf('/') + 1);

/** A name for the lookup function that the chunk does not use. */
function freeName(code: string): string {
  for (let i = 0; ; i++) {
    const name = i === 0 ? '$gT' : `$gT${i}`;
    if (!new RegExp(`(?<![\\w$])\\${name}(?![\\w$])`).test(code)) return name;
  }
}

/** The lookup function, a hoisted declaration (before a trailing source-map comment). */
function withLookup(code: string, name: string): string {
  const fn = `function ${name}(i,s){var d=globalThis.__glossa;return d&&d[i]!=null?d[i]:s}\n`;
  const map = /\n?\/\/# sourceMappingURL=[^\n]*\n?$/.exec(code);
  if (!map) return `${code}${code.endsWith('\n') ? '' : '\n'}${fn}`;
  return `${code.slice(0, map.index)}\n${fn}${code.slice(map.index).replace(/^\n/, '')}`;
}

/** The dictionary's classic script, before the page's first script so it runs before the app. */
function withDictionary(html: string, url: string): string {
  const tag = `<script src="${url}"></script>`;
  const script = /<script[\s>]/i.exec(html);
  if (script) return `${html.slice(0, script.index)}${tag}\n    ${html.slice(script.index)}`;
  const head = /<\/head>/i.exec(html);
  if (head) return `${html.slice(0, head.index)}  ${tag}\n  ${html.slice(head.index)}`;
  return `${tag}\n${html}`;
}

/** A string split at markup: markup (tags, attribute names, quotes) and text (between tags, attribute values). */
function tokens(s: string): { markup: string[]; text: string[] } {
  const markup: string[] = [];
  const text: string[] = [];
  let m = '';
  let t = '';
  let i = 0;
  const flushText = () => {
    markup.push(m);
    text.push(t);
    m = '';
    t = '';
  };
  while (i < s.length) {
    if (s[i] !== '<') {
      t += s[i++];
      continue;
    }
    if (t) flushText();
    // A tag: markup up to `>`, except quoted attribute values, which are text.
    while (i < s.length && s[i] !== '>') {
      const q = s[i]!;
      m += s[i++];
      if (q !== '"' && q !== "'") continue;
      const close = s.indexOf(q, i);
      if (close < 0) break;
      t = s.slice(i, close);
      flushText();
      m = q;
      i = close + 1;
    }
    if (i < s.length) m += s[i++];
  }
  markup.push(m);
  text.push(t);
  return { markup, text };
}

type TextPart = string | { english: string; values: (string | null)[] };

/**
 * A string with markup whose markup is the same in every locale, as markup and text parts (a text part
 * that no locale changes is merged into the markup); `undefined` when it has no markup or a locale's
 * markup differs. `values` has `null` where a locale keeps the English value.
 */
function textParts(english: Value, values: readonly (Value | null)[]): TextPart[] | undefined {
  if (typeof english !== 'string' || !english.includes('<')) return undefined;
  const en = tokens(english);
  if (en.markup.length < 2) return undefined;
  const theirs: ({ markup: string[]; text: string[] } | null)[] = [];
  for (const v of values) {
    if (v === null) {
      theirs.push(null);
      continue;
    }
    if (typeof v !== 'string') return undefined;
    const t = tokens(v);
    if (t.markup.length !== en.markup.length || t.markup.some((m, i) => m !== en.markup[i])) return undefined;
    theirs.push(t);
  }
  const out: TextPart[] = [];
  let markup = '';
  for (let i = 0; i < en.markup.length; i++) {
    markup += en.markup[i];
    const english = en.text[i]!;
    const parts = theirs.map((t) => (t && t.text[i] !== english ? t.text[i]! : null));
    if (parts.every((p) => p === null)) {
      markup += english;
      continue;
    }
    out.push(markup, { english, values: parts });
    markup = '';
  }
  out.push(markup);
  return out.filter((p) => p !== '');
}

/** Text as the raw characters of a template literal. */
const rawQuasi = (text: string) => text.replace(/\\|`|\$\{/g, (c) => `\\${c}`);
