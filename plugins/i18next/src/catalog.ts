/**
 * The JSON catalog adapter: strings become segments, their markup inline codes, in the message syntax
 * of the library that reads the file: `i18next` (`{{x}}`, `{{x, format}}`, `{{- x}}`, `$t(key)`,
 * react-i18next `<Trans>` components indexed and named, single-brace `{x}`), `icu` (i18next-icu,
 * FormatJS, next-intl: arguments as codes, each `plural`/`select`/`selectordinal` branch a segment of its
 * own, rich tags as paired codes) or `vue` (vue-i18n: `{name}`, `@:linked`, `|` choices as segments).
 * Values that are not prose (URLs, code, identifiers, numbers) are not sent. A translated catalog is
 * rebuilt with the plural forms of the *target* locale (Intl.PluralRules) where the catalog has plural
 * groups (a base key with `_other` and another form).
 */
import {
  type CodeMap,
  decodeWithCodes,
  encodeWithCodes,
  extractIcu,
  extractVue,
  type IcuExtraction,
  i18nextCodes,
  type NotProseKind,
  notProse,
  type RunFailure,
  type Segment,
} from '@glossa/core';

/** A catalog as i18next reads it: nested objects of strings (other values are copied as they are). */
export type Catalog = { [key: string]: CatalogValue };
export type CatalogValue = string | number | boolean | null | Catalog | CatalogValue[];

/** The message syntax of a catalog: which library reads it. */
export type MessageSyntax = 'i18next' | 'icu' | 'vue';
export const MESSAGE_SYNTAXES: readonly MessageSyntax[] = ['i18next', 'icu', 'vue'];

export interface CatalogOptions {
  /** Prefix of every segment key (`<file>#<key path>`), e.g. `common.json`. Default `''`. */
  readonly file?: string;
  /** Between nested key parts. Default `.` (as i18next's `keySeparator`). */
  readonly keySeparator?: string;
  /** The message syntax. Default `'auto'`: detected from the values (see `detectSyntax`). */
  readonly syntax?: MessageSyntax | 'auto';
}

/** A value left as it is: not prose, or a message that does not parse in the file's syntax. */
export interface KeptValue {
  readonly key: string;
  readonly reason: NotProseKind | 'syntax';
  readonly message?: string;
}

export interface CatalogExtraction {
  readonly catalog: Catalog;
  readonly file: string;
  readonly segments: readonly Segment[];
  /** Inline codes per segment key. */
  readonly codes: Readonly<Record<string, CodeMap>>;
  /** Source language plural categories found per base key path (e.g. `items` → one, other). */
  readonly plurals: ReadonlyMap<string, { readonly ordinal: boolean; readonly forms: ReadonlySet<string> }>;
  /** The syntax the values were read in, and whether it was detected (`syntax: 'auto'`). */
  readonly syntax: MessageSyntax;
  readonly syntaxDetected: boolean;
  /** Values not sent (by segment key of the value): not prose, or not parsable (then read as i18next). */
  readonly kept: readonly KeptValue[];
  /** ICU and vue messages by the key of the value: their branches are segments of their own. */
  readonly messages: ReadonlyMap<string, IcuExtraction>;
  /** The key path of the value each segment comes from (a branch's segment → its message's value). */
  readonly valueKeys: ReadonlyMap<string, string>;
}

const PLURAL = /^(.*?)_(ordinal_)?(zero|one|two|few|many|other)$/;
const FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** Extracts the segments of a catalog (JSON text or parsed). Throws `CatalogError` for a non-object. */
export function extractCatalog(input: string | Catalog, options: CatalogOptions = {}): CatalogExtraction {
  const file = options.file ?? '';
  const catalog = checkedCatalog(input, file);
  const separator = options.keySeparator ?? '.';
  const chosen = options.syntax ?? 'auto';
  if (chosen !== 'auto' && !MESSAGE_SYNTAXES.includes(chosen))
    throw new RangeError(
      `extractCatalog: syntax must be 'auto', ${MESSAGE_SYNTAXES.map((s) => `'${s}'`).join(', ')}; got ${JSON.stringify(chosen)}`,
    );
  const syntax = chosen === 'auto' ? detectSyntax(catalog) : chosen;
  const segments: Segment[] = [];
  const codes: Record<string, CodeMap> = {};
  const kept: KeptValue[] = [];
  const messages = new Map<string, IcuExtraction>();
  const valueKeys = new Map<string, string>();
  const plurals = new Map<string, { ordinal: boolean; forms: Set<string> }>();
  const walk = (value: CatalogValue, path: string[]) => {
    if (typeof value === 'string') {
      const keyPath = path.join(separator);
      const key = `${file}#${keyPath}`;
      const reason = notProse(value);
      if (reason) kept.push({ key, reason });
      else if (syntax === 'i18next') {
        const encoded = encodeWithCodes(value, i18nextCodes);
        segments.push({ key, source: encoded.source });
        codes[key] = encoded.codes;
        valueKeys.set(key, keyPath);
      } else {
        try {
          const message = syntax === 'icu' ? extractIcu(value, key) : extractVue(value, key);
          messages.set(key, message);
          for (const s of message.segments) {
            segments.push({ key: s.key, source: s.source });
            codes[s.key] = s.codes;
            valueKeys.set(s.key, keyPath);
          }
        } catch (error) {
          kept.push({ key, reason: 'syntax', message: (error as Error).message });
          const encoded = encodeWithCodes(value, i18nextCodes);
          segments.push({ key, source: encoded.source });
          codes[key] = encoded.codes;
          valueKeys.set(key, keyPath);
        }
      }
      const plural = PLURAL.exec(path.at(-1)!);
      if (plural) {
        const base = [...path.slice(0, -1), plural[1]!].join(separator);
        const id = `${base}${plural[2] ? '_ordinal' : ''}`;
        const entry = plurals.get(id) ?? { ordinal: plural[2] !== undefined, forms: new Set<string>() };
        entry.forms.add(plural[3]!);
        plurals.set(id, entry);
      }
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    }
  };
  walk(catalog, []);
  // A plural group is a base key with `_other` and another form; `arrowhead_crowfoot_many` alone is a key.
  for (const [id, group] of plurals)
    if (!group.forms.has('other') || group.forms.size < 2) plurals.delete(id);
  return {
    catalog,
    file,
    segments,
    codes,
    plurals,
    syntax,
    syntaxDetected: chosen === 'auto',
    kept,
    messages,
    valueKeys,
  };
}

const ICU_ARGUMENT = /\{\s*[\w.]+\s*,\s*(?:plural|select|selectordinal|number|date|time)\s*[,}]/;
const I18NEXT_ARGUMENT = /\{\{[^{}]+\}\}|\$t\(/;
const VUE_LINK = /@(?:\.\w+)?:[\w{(]|\{\s*'[^']*'\s*\}/;
const SINGLE_BRACE = /(?:^|[^{])\{\s*[\w.]+\s*\}/;

/**
 * The syntax of a catalog by its values: `i18next` when any value uses `{{x}}` or `$t(`; else `icu` when
 * one has an ICU `plural`/`select`/format argument; else `vue` when one has a linked message (`@:key`),
 * a literal (`{'@'}`) or `|` choices around `{x}` arguments; else `icu` when values use `{x}`; else `i18next`.
 */
export function detectSyntax(catalog: Catalog): MessageSyntax {
  let icu = false;
  let vue = false;
  let single = false;
  let i18next = false;
  const visit = (value: CatalogValue) => {
    if (typeof value === 'string') {
      if (I18NEXT_ARGUMENT.test(value)) i18next = true;
      if (ICU_ARGUMENT.test(value)) icu = true;
      if (VUE_LINK.test(value) || (/\s\|\s/.test(value) && SINGLE_BRACE.test(value))) vue = true;
      if (SINGLE_BRACE.test(value)) single = true;
    } else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) visit(v);
  };
  visit(catalog);
  if (i18next) return 'i18next';
  if (icu) return 'icu';
  if (vue) return 'vue';
  return single ? 'icu' : 'i18next';
}

export interface BuildOptions {
  /** The target locale: decides the plural forms written. */
  readonly locale: string;
  readonly keySeparator?: string;
  /** A target that cannot be decoded: the source text is kept and the problem reported here. */
  readonly onProblem?: (problem: RunFailure) => void;
}

/**
 * The translated catalog: same structure, strings replaced by their targets (by segment key; a missing
 * target keeps the source), plural groups rewritten to the target locale's categories. A category the
 * source lacks takes the source's `other` form; `_zero` is kept when the source has it (i18next uses it
 * for a count of 0 in every language).
 */
export function buildCatalog(
  extraction: CatalogExtraction,
  targets: ReadonlyMap<string, string>,
  options: BuildOptions,
): Catalog {
  const separator = options.keySeparator ?? '.';
  const cardinal = new Intl.PluralRules(options.locale).resolvedOptions().pluralCategories as string[];
  const ordinal = new Intl.PluralRules(options.locale, { type: 'ordinal' }).resolvedOptions()
    .pluralCategories as string[];
  const text = (keyPath: string, source: string) => {
    const key = `${extraction.file}#${keyPath}`;
    const message = extraction.messages.get(key);
    if (message) {
      try {
        return message.rebuild(targets, { locale: options.locale });
      } catch (error) {
        options.onProblem?.({
          locale: options.locale,
          key,
          file: extraction.file,
          reason: (error as Error).message,
        });
        return source;
      }
    }
    const target = targets.get(key);
    if (target === undefined) return source;
    const codes = extraction.codes[key] ?? {};
    // Most strings have no codes: without markup or entities the target is already the text.
    if (!/[&<]/.test(target) && Object.keys(codes).length === 0) return target;
    try {
      return decodeWithCodes(target, codes);
    } catch (error) {
      options.onProblem?.({
        locale: options.locale,
        key,
        file: extraction.file,
        reason: (error as Error).message,
      });
      return source;
    }
  };
  const build = (value: Catalog, path: string[]): Catalog => {
    const out: Catalog = {};
    for (const [k, v] of Object.entries(value)) {
      const keyPath = [...path, k];
      const plural = typeof v === 'string' ? PLURAL.exec(k) : null;
      const id = plural ? [...path, plural[1]!].join(separator) + (plural[2] ? '_ordinal' : '') : '';
      const group = plural ? extraction.plurals.get(id) : undefined;
      if (plural && group) {
        const prefix = `${plural[1]}_${plural[2] ?? ''}`;
        if (k !== firstFormKey(value, prefix)) continue;
        const wanted = [...(group.forms.has('zero') ? ['zero'] : []), ...(plural[2] ? ordinal : cardinal)];
        for (const form of FORMS.filter((f) => wanted.includes(f))) {
          const from = group.forms.has(form) ? form : 'other';
          const source = value[`${prefix}${from}`];
          if (typeof source !== 'string') continue; // the source has no `other` form to fall back on
          out[`${prefix}${form}`] = text([...path, `${prefix}${from}`].join(separator), source);
        }
      } else if (typeof v === 'string') out[k] = text(keyPath.join(separator), v);
      else if (Array.isArray(v)) out[k] = Object.values(build(Object.fromEntries(v.entries()), keyPath));
      else if (typeof v === 'object' && v !== null) out[k] = build(v, keyPath);
      else out[k] = v;
    }
    return out;
  };
  return build(extraction.catalog, []);
}

/** The first key of a plural group in `value`, so a group is written once, where it starts. */
function firstFormKey(value: Catalog, prefix: string): string | undefined {
  return Object.keys(value).find(
    (k) => k.startsWith(prefix) && /^(zero|one|two|few|many|other)$/.test(k.slice(prefix.length)),
  );
}

/** A catalog from JSON text (or as given), checked to be an object. Throws `CatalogError`. */
export function checkedCatalog(input: string | Catalog, file = ''): Catalog {
  const catalog = typeof input === 'string' ? parseCatalog(input, file) : input;
  if (typeof catalog !== 'object' || catalog === null || Array.isArray(catalog)) {
    throw new CatalogError(`${file || 'catalog'}: expected a JSON object of strings`);
  }
  return catalog;
}

function parseCatalog(text: string, file: string): Catalog {
  try {
    return JSON.parse(text) as Catalog;
  } catch (error) {
    throw new CatalogError(`${file || 'catalog'}: not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export class CatalogError extends Error {
  override name = 'CatalogError';
  readonly code = 'catalog';
}
