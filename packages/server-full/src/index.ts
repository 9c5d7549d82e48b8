import { readFileSync } from 'node:fs';
import type { CliSettings, ServerFeature } from '@glossa/server';
import { type DocumentOptions, documentsFeature } from '@glossa/server-documents';
import { languageToolsFeature, type QualityOptions } from '@glossa/server-language-tools';
import { voiceFeature } from '@glossa/server-voice';

export * from '@glossa/server';

/**
 * The full server's default `--memory-budget-mb` (the spine's is 768 MiB, for a 1 GiB container). The
 * language tools' warm-up holds about 660–760 MB once `/ready` answers, measured part by part with
 * bench/warm-up-rss.ts: Harper's thread 240–250 MB (Liftoff only), the language detection thread 165–170 MB
 * (eld's database read as JSON), the quality thread 90–100 MB, the Hunspell word lists and the main heap the
 * rest; the largest inputs the limits allow then bring the peak to 906–1,007 MB (abuse-full.test.ts, idle
 * 735–787 MB). 1024 would leave as little as 17 MB; 1280 MiB fits a 1.5 GiB container. With
 * `MALLOC_ARENA_MAX=2` in the environment the peak was 886 MB, and 1024 fits a 1 GiB container
 * (docs/deploy.md).
 */
export const FULL_MEMORY_BUDGET_MB = 1280;

/**
 * `argv` of `glossa-server` with `--memory-budget-mb FULL_MEMORY_BUDGET_MB` added when neither a flag, the
 * environment (`GLOSSA_MEMORY_BUDGET_MB`) nor the config file sets the budget.
 */
export function withFullServerDefaults(argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  if (argv[0] === 'keys' || argv[0] === '--help' || argv[0] === '-h') return [...argv];
  if (argv.some((arg) => arg === '--memory-budget-mb' || arg.startsWith('--memory-budget-mb=')))
    return [...argv];
  if (env.GLOSSA_MEMORY_BUDGET_MB !== undefined) return [...argv];
  const at = argv.indexOf('--config');
  const file =
    (at >= 0 ? argv[at + 1] : argv.find((arg) => arg.startsWith('--config='))?.slice(9)) ?? env.GLOSSA_CONFIG;
  if (file !== undefined) {
    try {
      if ('memoryBudgetMb' in (JSON.parse(readFileSync(file, 'utf8')) as object)) return [...argv];
    } catch {
      // The server reports an unreadable or invalid config file itself.
    }
  }
  return [...argv, '--memory-budget-mb', String(FULL_MEMORY_BUDGET_MB)];
}

/**
 * Every feature package of the server: documents, language tools, voice. `options` are the feature
 * settings of `glossa-server` (flags, `GLOSSA_*` variables, config file): `documents` for documentsFeature, `quality` for the language tools' quality evaluation.
 */
export function allFeatures(options: CliSettings['features'] = {}): ServerFeature[] {
  return [
    documentsFeature((options.documents ?? {}) as DocumentOptions),
    languageToolsFeature({ quality: (options.quality ?? {}) as QualityOptions }),
    voiceFeature(),
  ];
}
