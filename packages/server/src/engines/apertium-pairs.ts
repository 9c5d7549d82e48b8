/**
 * Which language pairs the installed Apertium data can translate, and through which modes.
 *
 * Modes are the files `<modes dir>/<src>-<tgt>[_<variant>].mode`; codes are mapped to the interface's
 * canonical codes (`eng` → `en`, `spa` → `es`, `por`/`pt` → `pt`, …). Regional targets:
 * - `en`, `en-GB`: the pair's default mode (Apertium's English is British); `en-US`: the `_US` variant
 *   when installed, else the default mode.
 * - `pt`, `pt-PT`: the default mode (European Portuguese); `pt-BR`: the `_BR` variant when installed, else
 *   the default mode.
 * Other variants (`eng-cat_valencia`) name no interface code and are not offered.
 * Pairs without a direct mode are offered through a pivot (`en → es → fr`) when both legs exist.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** ISO 639-3 (and 639-1) codes Apertium uses → the interface's base codes. */
const BASE_CODES: Readonly<Record<string, string>> = {
  eng: 'en', en: 'en', spa: 'es', es: 'es', cat: 'ca', ca: 'ca', por: 'pt', pt: 'pt', ita: 'it', it: 'it',
  fra: 'fr', fr: 'fr', glg: 'gl', gl: 'gl', oci: 'oc', oc: 'oc', ron: 'ro', ro: 'ro', deu: 'de', de: 'de',
  nld: 'nl', nl: 'nl', swe: 'sv', sv: 'sv', dan: 'da', da: 'da', nob: 'nb', nb: 'nb', rus: 'ru', ru: 'ru',
  ukr: 'uk', uk: 'uk', bul: 'bg', bg: 'bg', pol: 'pl', pl: 'pl', ces: 'cs', cs: 'cs', slk: 'sk', sk: 'sk',
  slv: 'sl', sl: 'sl', tur: 'tr', tr: 'tr', ind: 'id', id: 'id', fin: 'fi', fi: 'fi', est: 'et', et: 'et',
}; // biome-ignore format: a table

/** Interface targets served by a base mode (key: base code) and by a variant mode (key: `base_variant`). */
const TARGETS: Readonly<Record<string, readonly string[]>> = {
  en: ['en', 'en-GB', 'en-US'],
  en_US: ['en-US'],
  pt: ['pt', 'pt-PT', 'pt-BR'],
  pt_BR: ['pt-BR'],
};

/** Targets that have a variant mode of their own; a base mode serves them only as a fallback. */
const VARIANT_TARGETS = new Set(['en-US', 'pt-BR']);

/** The language everything pivots through when no direct mode exists. */
export const PIVOT = 'es';

export interface ApertiumMode {
  /** Mode name, e.g. `eng-spa`, `es-pt_BR`. */
  readonly name: string;
  readonly file: string;
  readonly source: string;
  /** Base target language (`pt` for `es-pt_BR`). */
  readonly target: string;
  readonly variant: string | undefined;
  /** The Debian package that installed the mode's data and its version, e.g. `apertium-eng-spa 0.8.1-2`. */
  readonly package: string;
}

export interface ApertiumRoute {
  readonly source: string;
  readonly target: string;
  /** One mode (direct) or two (through the pivot language). */
  readonly modes: readonly ApertiumMode[];
}

const MODE_NAME = /^([a-z]{2,3})-([a-z]{2,3})(?:_([A-Za-z0-9]+))?$/;

/** Debian package versions of every installed `apertium*` package (empty when dpkg is missing). */
function packageVersions(): Map<string, string> {
  try {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format fields
    const format = '${Package} ${Version}\n';
    const out = execFileSync('dpkg-query', ['-W', '-f', format, 'apertium*'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return new Map(
      out
        .split('\n')
        .map((line) => line.split(' '))
        .filter(([name, version]) => name && version)
        .map(([name, version]) => [name!, version!]),
    );
  } catch {
    return new Map();
  }
}

/** The data package a mode belongs to: the `apertium-<pair>` folder its pipeline reads. */
function dataPackage(modeFile: string): string {
  const text = readFileSync(modeFile, 'utf8');
  return /\/apertium-([a-z]{2,3}-[a-z]{2,3})\//.exec(text)?.[1] ?? 'unknown';
}

/** Finds the installed modes and the route for every pair they make, direct ones before pivots. */
export function discoverRoutes(modesDir: string): { routes: ApertiumRoute[]; apertiumVersion: string } {
  const versions = packageVersions();
  const modes: ApertiumMode[] = [];
  if (existsSync(modesDir)) {
    for (const file of readdirSync(modesDir).sort()) {
      const match = MODE_NAME.exec(file.replace(/\.mode$/, ''));
      if (!file.endsWith('.mode') || !match) continue;
      const source = BASE_CODES[match[1]!];
      const target = BASE_CODES[match[2]!];
      if (!source || !target || source === target) continue;
      const variant = match[3];
      if (variant !== undefined && !TARGETS[`${target}_${variant}`]) continue;
      const path = join(modesDir, file);
      const pkg = `apertium-${dataPackage(path)}`;
      modes.push({
        name: match[0],
        file: path,
        source,
        target,
        variant,
        package: `${pkg} ${versions.get(pkg) ?? 'unknown'}`,
      });
    }
  }
  const routes = new Map<string, { route: ApertiumRoute; rank: number }>();
  const offer = (chain: ApertiumMode[]) => {
    const last = chain.at(-1)!;
    const served = TARGETS[last.variant ? `${last.target}_${last.variant}` : last.target] ?? [last.target];
    for (const target of served) {
      // Lower is better: direct before pivot, a mode made for the target before a fallback.
      const fallback = last.variant === undefined && VARIANT_TARGETS.has(target);
      const rank = (chain.length - 1) * 2 + (fallback ? 1 : 0);
      const key = `${chain[0]!.source}>${target}`;
      const existing = routes.get(key);
      if (!existing || rank < existing.rank) {
        routes.set(key, { route: { source: chain[0]!.source, target, modes: chain }, rank });
      }
    }
  };
  for (const mode of modes) offer([mode]);
  for (const first of modes.filter((m) => m.target === PIVOT && !m.variant)) {
    for (const second of modes.filter((m) => m.source === PIVOT && m.target !== first.source)) {
      offer([first, second]);
    }
  }
  return {
    routes: [...routes.values()].map((r) => r.route),
    apertiumVersion: versions.get('apertium') ?? 'unknown',
  };
}
