/** `glossa init`: writes a starting `glossa.config.ts` (or `.json`) in the current folder. */

import { existsSync } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CONFIG_FILE_NAMES } from '@glossa/core';
import { isPseudoLocale } from '@glossa/protocol';
import { parseLocales } from '../context.js';
import { UsageError } from '../errors.js';
import type { CommandEnv } from './translate.js';

export interface InitFlags {
  readonly json?: boolean;
  readonly to?: string;
  readonly from?: string;
  readonly files?: string;
  readonly out?: string;
  readonly force?: boolean;
}

export async function initCommand(ctx: CommandEnv, flags: InitFlags): Promise<number> {
  const config = {
    sourceLang: flags.from === undefined ? 'en' : parseLocales(flags.from)[0]!,
    targetLocales: flags.to === undefined ? ['es', 'en-XA'] : parseLocales(flags.to),
    files: [flags.files ?? 'docs/**/*.md'],
    out: flags.out ?? 'i18n',
  };
  const engines = enginesSection(config.targetLocales, ctx.env);
  const name = flags.json ? 'glossa.config.json' : 'glossa.config.ts';
  if (!flags.force) {
    for (const existing of CONFIG_FILE_NAMES) {
      if (
        await access(join(ctx.cwd, existing)).then(
          () => true,
          () => false,
        )
      ) {
        throw new UsageError(`${existing} already exists here (--force writes ${name} anyway)`);
      }
    }
  }
  // The config's type comes from @glossa/core: imported only where the project can resolve it (a
  // project with only the CLI, or none installed, would fail its type check on that line).
  const typed = resolvable('@glossa/core', ctx.cwd);
  const quote = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  const text = flags.json
    ? `${JSON.stringify({ ...config, engines }, null, 2)}\n`
    : [
        ...(typed ? ["import type { GlossaConfig } from '@glossa/core';", ''] : []),
        '// Every option is described in docs/config.md of Glossa.',
        'export default {',
        `  sourceLang: ${quote(config.sourceLang)},`,
        `  targetLocales: [${config.targetLocales.map(quote).join(', ')}],`,
        `  files: [${config.files.map(quote).join(', ')}],`,
        `  out: ${quote(config.out)},`,
        '  // Engines in order per target locale (keys stay in the environment); see docs/engines.md.',
        `  engines: ${JSON.stringify(engines, null, 2).replaceAll('\n', '\n  ')},`,
        typed ? '} satisfies GlossaConfig;' : '};',
        '',
      ].join('\n');
  await writeFile(join(ctx.cwd, name), text, { flag: flags.force ? 'w' : 'wx' });
  ctx.io.out(
    `wrote ${name}: ${config.sourceLang} → ${config.targetLocales.join(', ')}, files ${config.files[0]}, output in ${config.out}/<locale>/`,
  );
  for (const [key, value] of Object.entries(engines))
    if (Array.isArray(value)) ctx.io.out(`engines ${key}: ${value.join(' > ')}`);
  ctx.io.out('next: glossa translate (or glossa estimate to see the cost first)');
  return 0;
}

/** Whether the project at `cwd` has `name` installed (in its or a parent folder's `node_modules`). */
function resolvable(name: string, cwd: string): boolean {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * The `engines` section: pseudo and Apertium for every locale; where the environment holds a DeepL key or
 * an OpenAI-compatible service (`OPENAI_API_KEY`, `OPENAI_BASE_URL`), each real locale tries DeepL, then
 * the LLM, then Apertium (the server skips an engine that does not serve the pair), and the provider's
 * settings are written (base URL, model): never a key.
 */
export function enginesSection(
  locales: readonly string[],
  env: NodeJS.ProcessEnv,
): Record<string, string[] | Record<string, string>> {
  const deepl = Boolean(env.DEEPL_AUTH_KEY);
  const openai = Boolean(env.OPENAI_API_KEY || env.OPENAI_BASE_URL);
  const section: Record<string, string[] | Record<string, string>> = { default: ['pseudo', 'apertium'] };
  if (!deepl && !openai) return section;
  const list = [...(deepl ? ['deepl'] : []), ...(openai ? ['openai'] : []), 'apertium'];
  for (const locale of locales) if (!isPseudoLocale(locale)) section[locale] = list;
  if (openai) {
    section.openai = {
      ...(env.OPENAI_BASE_URL && { baseUrl: env.OPENAI_BASE_URL }),
      model: env.GLOSSA_OPENAI_MODEL || 'gpt-4o-mini',
    };
  }
  if (deepl && env.DEEPL_SERVER_URL) section.deepl = { serverUrl: env.DEEPL_SERVER_URL };
  return section;
}
