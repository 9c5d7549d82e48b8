/**
 * Lean locale output: a locale costs its text, not a copy of the app. A locale build's chunk is
 * compared with the source build's chunk made of the same modules; when they differ only in string
 * literals and template text (the translations, `import.meta.env.BASE_URL`, the file names of chunks
 * that stay per locale), the source chunk is kept for every locale with each of those strings read
 * from a per-locale dictionary: `$gT(7,"Add to cart")` returns entry 7 of `globalThis.__glossa`, or the
 * English value when the page set none (the English pages) or the entry is unset (a hole: same as
 * English). An entry is each locale's value at a position; positions with the same values (a text used in
 * several places) share one entry.
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
  /**
   * `variant`: an expression whose shape differs in this locale (a translation that reorders elements):
   * `value` is the locale's expression, its local names written as the English chunk's.
   */
  readonly kind: 'literal' | 'quasi' | 'variant';
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
 * `undefined` when they differ in anything else. With `codeB` (the source text of `b`), an array,
 * object, call or template expression whose shape differs becomes a `variant` difference (the smallest
 * such expression), when every local name in it is paired with one of `a`'s.
 */
export function stringDifferences(a: unknown, b: unknown, codeB?: string): Difference[] | undefined {
  const out: Found['out'] = [];
  const found: Found = {
    out,
    names: new Map(),
    back: new Map(),
    journal: [],
    variants: codeB !== undefined,
    chain: false,
  };
  try {
    compare(a, b, undefined, undefined, found);
  } catch (error) {
    if (error instanceof Structural) return undefined;
    throw error;
  }
  for (const [i, d] of out.entries()) {
    if (d.kind !== 'variant') continue;
    const text = renamed(d.node!, codeB!, found.back);
    if (text === undefined) return undefined;
    out[i] = { kind: 'variant', start: d.start, end: d.end, english: d.english, value: text };
  }
  return out;
}

/** Node types a variant can replace with `(lookup===n ? variant : English)` without changing what it means. */
const VARIANT_ROOTS = new Set(['ArrayExpression', 'ObjectExpression', 'CallExpression', 'TemplateLiteral']);

/**
 * `node`'s source in `code` with each local name written as the other program's (`back`), or
 * `undefined` when a name has no pair (or is a shorthand property, whose key is its name).
 */
function renamed(node: Node, code: string, back: ReadonlyMap<string, string>): string | undefined {
  const edits: { start: number; end: number; name: string }[] = [];
  let ok = true;
  const walk = (n: unknown, parent: Node | undefined, field: string | undefined) => {
    if (!ok || !n || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const item of n) walk(item, parent, field);
      return;
    }
    const x = n as Node;
    if (x.type === 'Property' && x.shorthand) ok = false;
    if (x.type === 'Identifier' && !(parent && field && named(parent, field))) {
      const name = back.get(x.name as string);
      if (name === undefined) ok = false;
      else if (name !== x.name) edits.push({ start: x.start, end: x.end, name });
      return;
    }
    for (const key of Object.keys(x)) if (!SKIP.has(key)) walk(x[key], x, key);
  };
  walk(node, undefined, undefined);
  if (!ok) return undefined;
  let text = code.slice(node.start, node.end);
  for (const e of edits.sort((p, q) => q.start - p.start)) {
    text = text.slice(0, e.start - node.start) + e.name + text.slice(e.end - node.start);
  }
  return text;
}

type Node = { type: string; start: number; end: number; [k: string]: unknown };

/**
 * What a comparison found: the string differences, and the local names of `a` and `b` paired one to one
 * (esbuild, the minifier of Vite 5–7, names variables by the characters of the file, strings included,
 * so a locale's chunk may call the same variable by another name).
 */
interface Found {
  readonly out: (Difference & { node?: Node })[];
  readonly names: Map<string, string>;
  readonly back: Map<string, string>;
  /** The names of `a` paired so far, in order (undone when a variant replaces the expression that paired them). */
  readonly journal: string[];
  /** Whether an expression whose shape differs may become a variant. */
  readonly variants: boolean;
  /** Inside an optional chain (`a?.b().c`): no variant there, it would change where the chain stops. */
  chain: boolean;
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
    if (!found.names.has(name)) found.journal.push(name);
    found.names.set(name, other);
    found.back.set(other, name);
    return;
  }
  if (x.type === 'Identifier' && !(parent && field && named(parent, field))) {
    const name = x.name as string;
    if (found.names.has(name) && found.names.get(name) !== name) throw new Structural();
    if (found.back.has(name) && found.back.get(name) !== name) throw new Structural();
    if (!found.names.has(name)) found.journal.push(name);
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
  if (
    found.variants &&
    !found.chain &&
    VARIANT_ROOTS.has(x.type) &&
    !x.optional &&
    parent &&
    field &&
    !fixed(parent, field) &&
    !(parent.type === 'TaggedTemplateExpression' && field === 'quasi')
  ) {
    // The smallest such expression whose shape differs is kept whole, as this locale has it.
    const mark = out.length;
    const journal = found.journal.length;
    try {
      children(x, y, found);
    } catch (error) {
      if (!(error instanceof Structural)) throw error;
      out.length = mark;
      for (const name of found.journal.splice(journal)) {
        found.back.delete(found.names.get(name)!);
        found.names.delete(name);
      }
      out.push({ kind: 'variant', start: x.start, end: x.end, english: 0, value: '', node: y });
    }
    return;
  }
  const chain = found.chain;
  if (x.type === 'ChainExpression') found.chain = true;
  try {
    children(x, y, found);
  } finally {
    found.chain = chain;
  }
}

function children(x: Node, y: Node, found: Found) {
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
        const found = a && b ? stringDifferences(a, b, code) : undefined;
        if (!found || !variantsFit(found, original.code.length, perLocale)) {
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

  // One index per distinct entry (each locale's value at a string position of a shared chunk), in file
  // and position order: a text the chunks use in several places is in a dictionary once.
  const rewrites = new Map<string, string>();
  const dictionaries = new Map<string, (Value | null)[]>(outputs.map((o) => [o.locale, []]));
  const indexes = new Map<string, number>();
  let lookups = 0;
  // The index of the entry with each locale's value (in the order of `outputs`; `null`: the call's English).
  const entry = (values: readonly (Value | null)[]): number => {
    const key = JSON.stringify(outputs.map((_, i) => values[i] ?? null));
    let index = indexes.get(key);
    if (index === undefined) {
      index = indexes.size;
      indexes.set(key, index);
      for (const [i, out] of outputs.entries()) dictionaries.get(out.locale)!.push(values[i] ?? null);
    }
    lookups++;
    return index;
  };
  for (const name of [...differences.keys()].sort()) {
    const positions = new Map<number, Difference>();
    const variants = new Map<number, Map<string, string>>();
    for (const [locale, found] of differences.get(name)!) {
      for (const d of found) {
        if (d.kind !== 'variant') positions.set(d.start, d);
        else variants.set(d.start, (variants.get(d.start) ?? new Map()).set(locale, d.value as string));
      }
    }
    if (positions.size === 0 && variants.size === 0) continue;
    const original = sourceOf.get(name)!.code;
    const call = freeName(original);
    const edits: { start: number; end: number; text: string; wrap?: (english: string) => string }[] = [];
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
          return { index: entry(part.values), english: part.english };
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
      const index = entry(values);
      edits.push(
        d.kind === 'literal'
          ? { start: d.start, end: d.end, text: `${call}(${index},${original.slice(d.start, d.end)})` }
          : { start: d.start, end: d.end, text: `\${${call}(${index},${JSON.stringify(d.english)})}` },
      );
    }
    for (const [start, byLocale] of variants) {
      // One entry: each locale's variant number (`null`: the English expression), one variant per text.
      const texts = [...new Set(byLocale.values())];
      const index = entry(
        outputs.map((out) =>
          byLocale.has(out.locale) ? texts.indexOf(byLocale.get(out.locale)!) + 1 : null,
        ),
      );
      const end = [...differences.get(name)!.values()]
        .flat()
        .find((d) => d.kind === 'variant' && d.start === start)!.end;
      const wrap = (english: string) =>
        `(${texts.map((t, i) => `${call}(${index},0)===${i + 1}?${t}:`).join('')}${english})`;
      edits.push({ start, end, text: '', wrap });
    }
    rewrites.set(name, withLookup(applyEdits(original, 0, original.length, edits), call));
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
      const body = `globalThis.__glossa=${dictionaryArray(dictionaries.get(out.locale)!)};\n`;
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

/**
 * `code` from `start` to `end` with `edits` made; a variant's edit (`wrap`) takes the English expression
 * with the edits inside it made (another locale's lookups).
 */
function applyEdits(
  code: string,
  start: number,
  end: number,
  edits: readonly { start: number; end: number; text: string; wrap?: (english: string) => string }[],
): string {
  const sorted = [...edits].sort((p, q) => p.start - q.start || q.end - p.end);
  let out = '';
  let at = start;
  for (let i = 0; i < sorted.length; ) {
    const e = sorted[i]!;
    out += code.slice(at, e.start);
    let j = i + 1;
    if (e.wrap) {
      while (j < sorted.length && sorted[j]!.start < e.end) j++;
      out += e.wrap(applyEdits(code, e.start, e.end, sorted.slice(i + 1, j)));
    } else out += e.text;
    at = e.end;
    i = j;
  }
  return out + code.slice(at, end);
}

/**
 * Whether a locale's variants may go into the shared chunk (every page loads them): together at most a
 * tenth of the chunk, and each the same expression as another locale's variant or apart from it.
 */
function variantsFit(
  found: readonly Difference[],
  size: number,
  others: ReadonlyMap<string, readonly Difference[]>,
): boolean {
  const variants = found.filter((d) => d.kind === 'variant');
  if (variants.reduce((n, d) => n + String(d.value).length, 0) > size / 10) return false;
  const theirs = [...others.values()].flatMap((f) => f.filter((d) => d.kind === 'variant'));
  return variants.every((v) =>
    theirs.every((t) => (t.start === v.start && t.end === v.end) || t.end <= v.start || v.end <= t.start),
  );
}

/**
 * A dictionary as a JavaScript array: its strings and numbers, and a hole (`[,"Hola"]`) where the locale
 * keeps the English value (a lookup reads `undefined` there, as past the array's end: trailing holes are
 * left out). The file is a script of its own, so `</script>` in a text needs no escape.
 */
function dictionaryArray(values: readonly (Value | null)[]): string {
  let end = values.length;
  while (end > 0 && values[end - 1] === null) end--;
  const items = values.slice(0, end).map((v) => (v === null ? '' : JSON.stringify(v)));
  return `[${items.join(',')}]`;
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
