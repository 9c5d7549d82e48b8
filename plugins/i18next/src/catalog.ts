/**
 * The i18next JSON v4 catalog adapter: strings become segments (interpolation `{{x}}`, `{{x, format}}`,
 * unescaped `{{- x}}`, nesting `$t(key)` and Trans tags `<0>…</0>` travel as inline codes), and a
 * translated catalog is rebuilt with the plural forms of the *target* locale (Intl.PluralRules).
 */
import {
  type CodeMap,
  decodeWithCodes,
  encodeWithCodes,
  i18nextCodes,
  type RunFailure,
  type Segment,
} from '@glossa/core';

/** A catalog as i18next reads it: nested objects of strings (other values are copied as they are). */
export type Catalog = { [key: string]: CatalogValue };
export type CatalogValue = string | number | boolean | null | Catalog | CatalogValue[];

export interface CatalogOptions {
  /** Prefix of every segment key (`<file>#<key path>`), e.g. `common.json`. Default `''`. */
  readonly file?: string;
  /** Between nested key parts. Default `.` (as i18next's `keySeparator`). */
  readonly keySeparator?: string;
}

export interface CatalogExtraction {
  readonly catalog: Catalog;
  readonly file: string;
  readonly segments: readonly Segment[];
  /** Inline codes per segment key. */
  readonly codes: Readonly<Record<string, CodeMap>>;
  /** Source language plural categories found per base key path (e.g. `items` → one, other). */
  readonly plurals: ReadonlyMap<string, { readonly ordinal: boolean; readonly forms: ReadonlySet<string> }>;
}

const PLURAL = /^(.*?)_(ordinal_)?(zero|one|two|few|many|other)$/;
const FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** Extracts the segments of a catalog (JSON text or parsed). Throws `CatalogError` for a non-object. */
export function extractCatalog(input: string | Catalog, options: CatalogOptions = {}): CatalogExtraction {
  const file = options.file ?? '';
  const catalog = checkedCatalog(input, file);
  const separator = options.keySeparator ?? '.';
  const segments: Segment[] = [];
  const codes: Record<string, CodeMap> = {};
  const plurals = new Map<string, { ordinal: boolean; forms: Set<string> }>();
  const walk = (value: CatalogValue, path: string[]) => {
    if (typeof value === 'string') {
      const keyPath = path.join(separator);
      const key = `${file}#${keyPath}`;
      const encoded = encodeWithCodes(value, i18nextCodes);
      segments.push({ key, source: encoded.source });
      codes[key] = encoded.codes;
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
  return { catalog, file, segments, codes, plurals };
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
      if (plural) {
        const id = [...path, plural[1]!].join(separator) + (plural[2] ? '_ordinal' : '');
        const group = extraction.plurals.get(id)!;
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
