import { readFileSync } from 'node:fs';
import type { CliSettings, ServerFeature } from '@glossa/server';
import { type DocumentOptions, documentsFeature } from '@glossa/server-documents';
import { languageToolsFeature, type QualityOptions } from '@glossa/server-language-tools';
import { voiceFeature } from '@glossa/server-voice';

export * from '@glossa/server';

/**
 * The full server's default `--memory-budget-mb`: 1024 MiB, for a 1 GiB container (the spine's is 768). The
 * language tools' warm-up holds about 0.60–0.65 GB once `/ready` answers (bench/warm-up-rss.ts: Harper's
 * thread 240–250 MB, the language detection thread 165–170 MB, the quality thread 90–100 MB, the Hunspell word
 * lists and the main heap the rest); the largest inputs the limits allow then bring the built server's peak
 * to 793–854 MB (abuse-full.test.ts, all at once, seven runs of 2026-11-29; each input alone 728–772 MB), at
 * least 170 MB under 1024. CI runs that test on the built packages; from the TypeScript sources (tsx in every
 * thread) the same process is about 100 MB larger (930 and 976 MB at the peak).
 */
export const FULL_MEMORY_BUDGET_MB = 1024;

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
