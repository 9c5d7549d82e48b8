/**
 * Real apps' catalogs (fixtures/README.md) translated to es (Apertium), fr (pivot through es) and en-XA
 * through a real @glossa/server, then read back by the libraries the apps use: i18next and react-i18next's
 * `<Trans>` (rendered with react-dom/server), intl-messageformat, vue-i18n's message compiler. Each target
 * must give the same arguments and the same element tree as its source; values that are not prose must
 * come back unchanged; a lower-case source must not get a capital. chrF against the apps' own es and fr
 * catalogs is printed, with the English copied as the floor.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GlossaClient } from '@glossa/client';
import { createTranslationRun, notProse, type Segment, verifyCodes } from '@glossa/core';
import { buildCatalog, type Catalog, extractCatalog, type MessageSyntax } from '@glossa/i18next';
import { startServer } from '@glossa/server';
import { parseXliff, translateXliff } from '@glossa/xliff';
import { createParser } from '@intlify/message-compiler';
import i18next from 'i18next';
import { IntlMessageFormat } from 'intl-messageformat';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Trans } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LOCALES = ['es', 'fr', 'en-XA'] as const;
const fixtures = new URL('../fixtures/', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, fixtures), 'utf8');
const json = (path: string) => JSON.parse(read(path)) as Catalog;

interface App {
  readonly name: string;
  readonly syntax: MessageSyntax;
  /** i18next's keySeparator for the app (Actual Budget uses natural-language keys). */
  readonly keySeparator: string | false;
}
const APPS: readonly App[] = [
  { name: 'actual-budget', syntax: 'i18next', keySeparator: false },
  { name: 'excalidraw', syntax: 'i18next', keySeparator: '.' },
  { name: 'mastodon', syntax: 'icu', keySeparator: false },
  { name: 'hoppscotch', syntax: 'vue', keySeparator: '.' },
];

let dir: string;
let server: Awaited<ReturnType<typeof startServer>>;
let client: GlossaClient;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-catalogs-'));
  server = await startServer({ dataDir: dir, port: 0, freePort: 0, host: '127.0.0.1', logger: false });
  client = new GlossaClient({ authKey: server.devKey, serverUrl: server.url });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function translate(segments: readonly Segment[]) {
  const run = createTranslationRun({ translator: client, sourceLang: 'en', targetLangs: [...LOCALES] });
  return (await run.translate({ segments })).targets;
}

/** Every string of a catalog by its key path (`\u0000` between nested parts). */
function flatten(catalog: Catalog, path: string[] = [], out = new Map<string, string>()) {
  for (const [k, v] of Object.entries(catalog)) {
    if (typeof v === 'string') out.set([...path, k].join('\u0000'), v);
    else if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v as Catalog, [...path, k], out);
  }
  return out;
}

// ---- i18next + react-i18next ----------------------------------------------------------------------

const TAG_NAME = /<\/?([A-Za-z0-9][\w.-]*)\s*\/?>/g;

/** A rendered tree, canonical: each element's children sorted, arguments as leaves, text dropped. */
function canonicalHtml(html: string): string {
  const root: string[][] = [[]];
  const names: string[] = [];
  for (const m of html.matchAll(/<span data-c="([^"]*)">|<\/span>|⟦[^⟧]*⟧|\{[\w.$-]+\}/g)) {
    if (m[0] === '</span>') {
      const children = root.pop()!.sort();
      root.at(-1)!.push(`${names.pop()}(${children.join(',')})`);
    } else if (m[1] !== undefined) {
      names.push(m[1]);
      root.push([]);
    } else root.at(-1)!.push(m[0]);
  }
  return root[0]!.sort().join(',');
}

async function i18nextChecker(app: App, source: Catalog, locale: string, target: Catalog) {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: 'en',
    resources: { en: { translation: source }, [locale]: { translation: target } },
    keySeparator: app.keySeparator,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    missingInterpolationHandler: (_text: string, value: RegExpExecArray) => `⟦${value[1]!.trim()}⟧`,
  });
  const render = (lng: string, key: string, names: readonly string[]) => {
    const components = Object.fromEntries(names.map((n) => [n, createElement('span', { 'data-c': n })]));
    return renderToStaticMarkup(
      createElement(Trans, { i18n, i18nKey: key, components, t: i18n.getFixedT(lng), tOptions: { lng } }),
    );
  };
  /** Why the target of `key` does not give the source's arguments and elements, or undefined. */
  return (key: string, sourceValue: string, targetValue: string): string | undefined => {
    const t = (lng: string) => i18n.getFixedT(lng)(key) as string;
    const args = (text: string) => [...text.matchAll(/⟦[^⟧]*⟧|\{[\w.$-]+\}/g)].map((m) => m[0]).sort();
    if (args(t('en')).join() !== args(t(locale)).join())
      return `arguments ${args(t('en')).join(' ')} → ${args(t(locale)).join(' ')}`;
    if (!sourceValue.includes('<') && !targetValue.includes('<')) return undefined;
    const names = [...new Set([...`${sourceValue}${targetValue}`.matchAll(TAG_NAME)].map((m) => m[1]!))];
    const a = canonicalHtml(render('en', key, names));
    const b = canonicalHtml(render(locale, key, names));
    return a === b ? undefined : `Trans tree ${a} → ${b}`;
  };
}

// ---- intl-messageformat (FormatJS, next-intl, Angular ICU) --------------------------------------------

type IcuAst = ReturnType<IntlMessageFormat['getAst']>;
/**
 * The arguments, tags and branches of a message, order aside. A plural is read with the categories of
 * `locale` it lacks added as copies of its `other` branch: the target gains them (Spanish `many`), and
 * reading both sides so makes them compare equal when the added branches mirror `other`.
 */
function canonicalIcu(nodes: IcuAst, locale: string): string {
  const items: string[] = [];
  for (const n of nodes as unknown as Record<string, unknown>[]) {
    const type = n['type'] as number;
    if (type === 0) continue; // literal text
    if (type === 7) items.push('#');
    else if (type === 5 || type === 6) {
      const options = { ...(n['options'] as Record<string, { value: IcuAst }>) };
      if (type === 6) {
        const rules = new Intl.PluralRules(locale, { type: n['pluralType'] as Intl.PluralRuleType });
        for (const category of rules.resolvedOptions().pluralCategories)
          options[category] ??= options['other']!;
      }
      const branches = Object.keys(options)
        .sort()
        .map((k) => `${k}(${canonicalIcu(options[k]!.value, locale)})`);
      items.push(`${type === 5 ? 'select' : 'plural'}:${n['value']}{${branches.join(',')}}`);
    } else if (type === 8) items.push(`<${n['value']}>(${canonicalIcu(n['children'] as IcuAst, locale)})`);
    else items.push(`${type}:${n['value']}:${JSON.stringify(n['style'] ?? null)}`);
  }
  return items.sort().join(',');
}

function icuProblem(source: string, target: string, locale: string): string | undefined {
  let a: string;
  let b: string;
  const language = locale === 'en-XA' ? 'en' : locale;
  try {
    a = canonicalIcu(new IntlMessageFormat(source, 'en').getAst(), language);
  } catch (error) {
    return `source does not parse: ${(error as Error).message}`;
  }
  try {
    b = canonicalIcu(new IntlMessageFormat(target, language).getAst(), language);
  } catch (error) {
    return `target does not parse: ${(error as Error).message}`;
  }
  return a === b ? undefined : `ICU ${a} → ${b}`;
}

// ---- vue-i18n ------------------------------------------------------------------------------------

function canonicalVue(message: string): string {
  const errors: string[] = [];
  const ast = createParser({ onError: (e) => errors.push(e.message) }).parse(message) as unknown as {
    body: Record<string, unknown>;
  };
  if (errors.length > 0) throw new Error(errors.join('; '));
  const items = (m: Record<string, unknown>): string =>
    ((m['items'] as Record<string, unknown>[]) ?? [])
      .filter((n) => n['type'] !== 3)
      .map((n) =>
        n['type'] === 6
          ? `@${JSON.stringify((n['modifier'] as { value?: string } | undefined)?.value ?? '')}:${JSON.stringify((n['key'] as { value?: string }).value)}`
          : `${n['type']}:${JSON.stringify(n['key'] ?? n['value'] ?? n['index'])}`,
      )
      .sort()
      .join(',');
  const body = ast.body;
  if (body['type'] === 1)
    return `plural[${(body['cases'] as Record<string, unknown>[]).map(items).join('|')}]`;
  return items(body);
}

function vueProblem(source: string, target: string): string | undefined {
  try {
    const a = canonicalVue(source);
    const b = canonicalVue(target);
    return a === b ? undefined : `vue ${a} → ${b}`;
  } catch (error) {
    return `does not compile: ${(error as Error).message}`;
  }
}

// ---- chrF ----------------------------------------------------------------------------------------

/** Corpus chrF (character n-grams 1–6, β = 2, spaces removed), 0–100. */
function chrF(pairs: readonly (readonly [string, string])[]): number {
  const match = new Array(7).fill(0);
  const hyp = new Array(7).fill(0);
  const ref = new Array(7).fill(0);
  const grams = (text: string, n: number) => {
    const s = [...text.replace(/\s+/g, '')];
    const counts = new Map<string, number>();
    for (let i = 0; i + n <= s.length; i++) {
      const g = s.slice(i, i + n).join('');
      counts.set(g, (counts.get(g) ?? 0) + 1);
    }
    return counts;
  };
  for (const [h, r] of pairs)
    for (let n = 1; n <= 6; n++) {
      const hg = grams(h, n);
      const rg = grams(r, n);
      for (const [g, c] of hg) {
        hyp[n] += c;
        match[n] += Math.min(c, rg.get(g) ?? 0);
      }
      for (const c of rg.values()) ref[n] += c;
    }
  let p = 0;
  let r = 0;
  for (let n = 1; n <= 6; n++) {
    p += hyp[n] ? match[n] / hyp[n] : 0;
    r += ref[n] ? match[n] / ref[n] : 0;
  }
  p /= 6;
  r /= 6;
  return p + r === 0 ? 0 : (100 * (5 * p * r)) / (4 * p + r);
}

// ---- the run -------------------------------------------------------------------------------------

interface Tally {
  mismatches: string[];
  notProse: number;
  notProseChanged: string[];
  lowerSources: number;
  lowerKept: number;
  capitalised: string[];
  chrf: Record<string, { pairs: [string, string][]; floor: [string, string][] }>;
}
const tally: Tally = {
  mismatches: [],
  notProse: 0,
  notProseChanged: [],
  lowerSources: 0,
  lowerKept: 0,
  capitalised: [],
  chrf: {},
};

function countValue(app: string, locale: string, key: string, source: string, target: string) {
  if (notProse(source)) {
    tally.notProse++;
    if (target !== source) tally.notProseChanged.push(`${app} ${locale} ${key}: ${target}`);
  }
  if (locale !== 'en-XA' && /^\p{Ll}/u.test(source) && target !== source) {
    tally.lowerSources++;
    if (/^\p{Lu}/u.test(target))
      tally.capitalised.push(`${app} ${locale} ${JSON.stringify(source)} → ${JSON.stringify(target)}`);
    else tally.lowerKept++;
  }
}

function countChrf(app: string, locale: string, source: Map<string, string>, target: Map<string, string>) {
  if (locale === 'en-XA') return;
  let human: Map<string, string>;
  try {
    human = flatten(json(`${app}/${locale}.json`));
  } catch {
    return;
  }
  const id = `${app} ${locale}`;
  tally.chrf[id] ??= { pairs: [], floor: [] };
  const entry = tally.chrf[id];
  for (const [key, reference] of human) {
    const machine = target.get(key);
    const english = source.get(key);
    if (machine === undefined || english === undefined) continue;
    entry.pairs.push([machine, reference]);
    entry.floor.push([english, reference]);
  }
}

describe('real app catalogs through a real server, read by their libraries', () => {
  for (const app of APPS) {
    it(`${app.name}: arguments, elements, non-prose values and case`, async () => {
      const source = json(`${app.name}/en.json`);
      const extraction = extractCatalog(source, {
        file: app.name,
        ...(app.keySeparator === false ? {} : { keySeparator: app.keySeparator }),
      });
      expect(extraction.syntax).toBe(app.syntax); // detected, not configured
      const targets = await translate(extraction.segments);
      const flatSource = flatten(source);
      for (const locale of LOCALES) {
        const built = buildCatalog(extraction, targets.get(locale)!, {
          locale,
          onProblem: (p) => tally.mismatches.push(`${app.name} ${locale} ${p.key}: ${p.reason}`),
        });
        const flatTarget = flatten(built);
        const check = app.syntax === 'i18next' ? await i18nextChecker(app, source, locale, built) : undefined;
        for (const [key, value] of flatSource) {
          const target = flatTarget.get(key);
          if (target === undefined) {
            // Plural forms the target locale does not use are left out; their group must still be there.
            const base = /^(.*)_(zero|one|two|few|many|other)$/.exec(key)?.[1];
            if (!base || ![...flatTarget.keys()].some((k) => k.startsWith(`${base}_`)))
              tally.mismatches.push(`${app.name} ${locale} ${key}: missing`);
            continue;
          }
          const i18nKey = app.keySeparator === false ? key : key.split('\u0000').join(app.keySeparator);
          const problem =
            app.syntax === 'i18next'
              ? check!(i18nKey, value, target)
              : app.syntax === 'icu'
                ? icuProblem(value, target, locale)
                : vueProblem(value, target);
          if (problem) tally.mismatches.push(`${app.name} ${locale} ${JSON.stringify(key)}: ${problem}`);
          countValue(app.name, locale, key, value, target);
        }
        countChrf(app.name, locale, flatSource, flatTarget);
      }
      expect(tally.mismatches).toEqual([]);
    }, 240_000);
  }

  it('Angular XLIFF files: ICU keywords untouched (intl-messageformat), codes kept, empty files pass', async () => {
    const files = readdirSync(new URL('angular-xliff/', fixtures)).filter((f) => f.endsWith('.xliff'));
    let units = 0;
    let icuUnits = 0;
    for (const file of files) {
      const text = read(`angular-xliff/${file}`);
      for (const locale of LOCALES) {
        const result = await translateXliff(text, {
          targetLanguage: locale,
          translate: async (segments) => {
            // Each ICU branch travels alone: no head, keyword or selector is ever sent.
            for (const s of segments)
              if (/\b(?:plural|select|selectordinal)\s*,|\{VAR_/.test(s.source))
                tally.mismatches.push(`${file} ${locale} ${s.key}: ICU syntax sent: ${s.source}`);
            const targets = await translate(segments);
            return segments.map((s) => targets.get(locale)!.get(s.key));
          },
        });
        for (const kept of result.kept)
          tally.mismatches.push(`${file} ${locale} ${kept.key}: ${kept.reason}`);
        for (const f of parseXliff(result.xliff).files)
          for (const unit of f.units) {
            const segment = unit.segments[0]!;
            units++;
            const target = segment.target ?? '';
            const problem = verifyCodes(segment.source, target);
            if (problem) tally.mismatches.push(`${file} ${locale} ${unit.id}: ${problem}`);
            if (!/\{\s*[\w.]+\s*,\s*(?:plural|select|selectordinal)\s*,/.test(segment.source)) continue;
            icuUnits++;
            const raw = (which: 'source' | 'target') =>
              new RegExp(`<trans-unit id="${unit.id}"[\\s\\S]*?<${which}[^>]*>([\\s\\S]*?)</${which}>`)
                .exec(result.xliff)?.[1]
                ?.replace(/<(?:x|ph)\s+id="([^"]+)"[^>]*\/>/g, '{$1}') ??
              new RegExp(`<unit id="${unit.id}"[\\s\\S]*?<${which}[^>]*>([\\s\\S]*?)</${which}>`)
                .exec(result.xliff)?.[1]
                ?.replace(/<(?:x|ph)\s+id="([^"]+)"[^>]*\/>/g, '{$1}') ??
              '';
            // Angular reads an apostrophe as text (no ICU quoting): doubled, intl-messageformat reads it so too.
            const angular = (which: 'source' | 'target') => raw(which).replaceAll("'", "''");
            const icu = icuProblem(angular('source'), angular('target'), locale);
            if (icu) tally.mismatches.push(`${file} ${locale} ${unit.id}: ${icu}`);
          }
      }
    }
    expect(icuUnits).toBe(LOCALES.length * 3); // the three ICU units of the Angular files
    expect(units).toBeGreaterThan(icuUnits);
    expect(tally.mismatches).toEqual([]);
  }, 120_000);

  it('0 mismatches, 0 non-prose values changed, case kept in ≥ 95%, chrF above the English floor', () => {
    const report = {
      mismatches: tally.mismatches.length,
      notProse: tally.notProse,
      notProseChanged: tally.notProseChanged.length,
      lowerSources: tally.lowerSources,
      lowerKept: tally.lowerKept,
      caseKept: tally.lowerSources ? tally.lowerKept / tally.lowerSources : 1,
      chrf: Object.fromEntries(
        Object.entries(tally.chrf).map(([k, v]) => [
          k,
          {
            segments: v.pairs.length,
            chrF: +chrF(v.pairs).toFixed(1),
            englishCopied: +chrF(v.floor).toFixed(1),
          },
        ]),
      ),
    };
    console.log(JSON.stringify(report, null, 2));
    if (tally.capitalised.length) console.log(tally.capitalised.slice(0, 20).join('\n'));
    expect(tally.notProseChanged).toEqual([]);
    expect(tally.notProse).toBeGreaterThan(0);
    expect(report.caseKept).toBeGreaterThanOrEqual(0.95);
    for (const [k, v] of Object.entries(report.chrf)) expect(v.chrF, k).toBeGreaterThan(v.englishCopied);
  });
});
