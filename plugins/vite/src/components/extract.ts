/**
 * A component module → its units, keyed for the lock and the catalog (`<path>#<hash of the source>`, so a
 * key lives as long as its text), and a module with translations written in.
 */
import { createHash } from 'node:crypto';
import { verifyCodes } from '@glossa/core';
import MagicString, { type SourceMap } from 'magic-string';
import { DEFAULT_ATTRIBUTES, DEFAULT_INLINE, nameMatcher } from './markup.js';
import { extractScript, loadParser, type ScriptOptions, splitJsxConditionals } from './script.js';
import { extractSvelte, extractVue, splitSvelteConditionals, splitVueConditionals } from './sfc.js';
import { applyEdits, type Edit, positionOf, type Unit, writeTarget } from './units.js';

export interface ComponentOptions {
  /**
   * Attributes, props and object-literal properties whose static string values are translated: names
   * and patterns. Default: `alt`, `aria-label`, `title`, `label`, `text`, `message`, `msg`, `description`,
   * `desc`, `placeholder`, `hint`, `tooltip`, `caption`, `heading`, `subtitle`, `summary`, and any
   * name ending in one of those words (`linkText`, `pageTitle`, `errorMsg`, `link-text`).
   */
  readonly attributes?: readonly (string | RegExp)[];
  /** Elements kept inside a sentence as paired codes. Default: HTML's phrasing elements and `Link`, `NavLink`, `RouterLink`. */
  readonly inline?: readonly string[];
  /** The tag of translated template literals, imported from `@glossa/vite/runtime`. Default `msg`. */
  readonly tag?: string;
  /**
   * Folder (relative to Vite's root) of the per-locale catalogs of component translations,
   * `<locale>.json`, where a person's edit of a translation is kept. Default `locales/components`.
   */
  readonly catalogDir?: string;
}

export interface KeyedUnit extends Unit {
  readonly key: string;
  readonly position: { line: number; column: number; offset: number };
}

export function scriptOptionsOf(options: ComponentOptions): ScriptOptions {
  return {
    attributes: nameMatcher(options.attributes ?? DEFAULT_ATTRIBUTES),
    inline: new Set(options.inline ?? DEFAULT_INLINE),
    tag: options.tag ?? 'msg',
  };
}

const MARKUP_FILE = /\.(jsx|tsx|vue|svelte)$/;
const SCRIPT_FILE = /\.(m?js|m?ts|cjs|cts)$/;

/** Whether a module (its id without query) may hold units. */
export function isComponentFile(path: string): boolean {
  return (MARKUP_FILE.test(path) || SCRIPT_FILE.test(path)) && !path.includes('/node_modules/');
}

/**
 * The module as the build compiles and extracts it: a string ternary beside the rest of its sentence
 * (Vue's `{{ a ? 'x' : 'y' }} rest`, JSX's and Svelte's `{a ? 'x' : 'y'} rest`) becomes one sentence per
 * branch (`splitVueConditionals`, `splitJsxConditionals`, `splitSvelteConditionals`); other modules as they are.
 */
export async function prepareComponent(file: string, code: string, options: ScriptOptions): Promise<string> {
  const edits = await prepareEdits(file, code, options);
  return edits.length > 0 ? applyEdits(code, edits) : code;
}

/** The edits `prepareComponent` makes (none for most modules), for a source map of the prepared module. */
export async function prepareEdits(file: string, code: string, options: ScriptOptions): Promise<Edit[]> {
  if (file.endsWith('.vue')) return splitVueConditionals(code, options.inline);
  if (file.endsWith('.svelte')) return splitSvelteConditionals(code, options.inline);
  const jsx = /\.(jsx|tsx)$/.exec(file)?.[1] as 'jsx' | 'tsx' | undefined;
  if (!jsx) return [];
  await loadParser();
  return splitJsxConditionals(code, jsx, options.inline);
}

/**
 * The prepared module and its source map (`magic-string`: the text before and after each ternary and the
 * first branch map to where they were; the second branch to the end of the content), or null when the
 * module is as it was.
 */
export async function prepareModule(
  id: string,
  file: string,
  code: string,
  options: ScriptOptions,
): Promise<{ code: string; map: SourceMap } | null> {
  const edits = await prepareEdits(file, code, options);
  if (edits.length === 0) return null;
  const s = new MagicString(code);
  for (const e of edits) if (e.end > e.start) s.overwrite(e.start, e.end, e.text);
  for (const e of edits) if (e.end === e.start) s.appendLeft(e.start, e.text);
  return { code: s.toString(), map: s.generateMap({ source: id, includeContent: true, hires: 'boundary' }) };
}

/** The units of a module; `file` is its path relative to the root (`/`-separated), the key prefix. */
export async function extractComponent(
  file: string,
  code: string,
  options: ScriptOptions,
): Promise<KeyedUnit[]> {
  await loadParser();
  const units: Unit[] = [];
  const ext = /\.([a-z]+)$/.exec(file)?.[1] ?? '';
  if (ext === 'vue') await extractVue(file, code, options, units);
  else if (ext === 'svelte') await extractSvelte(file, code, options, units);
  else if (ext === 'jsx' || ext === 'tsx') extractScript(file, code, ext, options, units);
  else {
    // Plain modules are parsed only when they may hold a tagged template or a marked string.
    if (!code.includes(`${options.tag}\``) && !code.includes('@glossa') && !/[\w'"]\s*:\s*['"`]/.test(code)) {
      return [];
    }
    extractScript(file, code, /ts$/.test(ext) ? 'ts' : 'js', options, units);
  }
  return units
    .sort((a, b) => a.start - b.start)
    .map((u) => ({ ...u, key: keyOf(file, u.source), position: positionOf(code, u.start) }));
}

export const keyOf = (file: string, source: string) =>
  `${file}#${createHash('sha256').update(source).digest('hex').slice(0, 12)}`;

export interface WriteProblem {
  readonly key: string;
  readonly position: KeyedUnit['position'];
  readonly reason: string;
}

/**
 * The module with each unit's target written in; a unit without a target, or whose target's codes do
 * not match its source, keeps its source text (listed in `problems`).
 */
export function localizeModule(
  code: string,
  units: readonly KeyedUnit[],
  targetOf: (key: string) => string | undefined,
): { code: string; problems: WriteProblem[] } {
  const edits: { start: number; end: number; text: string }[] = [];
  const problems: WriteProblem[] = [];
  for (const unit of units) {
    const target = targetOf(unit.key);
    if (target === undefined || target === unit.source) continue;
    const bad = verifyCodes(unit.source, target);
    if (bad) {
      problems.push({ key: unit.key, position: unit.position, reason: bad });
      continue;
    }
    edits.push({ start: unit.start, end: unit.end, text: writeTarget(unit, target) });
  }
  return { code: edits.length > 0 ? applyEdits(code, edits) : code, problems };
}
