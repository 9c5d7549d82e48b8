import type { ServerFeature } from '@glossa/server/feature';
import { detectLanguageRoute } from './detect/routes.js';
import { pollQualityEvaluationRoute, submitQualityEvaluationRoute } from './quality/jobs.js';
import { type QualityOptions, resolveQualityOptions } from './quality/options.js';
import { evaluateQualityRoute } from './quality/routes.js';
import { qualityServiceOf, startQualityJobs } from './quality/service.js';
import { trackReadiness } from './readiness.js';
import { warmUpLanguageTools } from './warm-up.js';
import { retainWriteHelpers } from './write/helper-lifetime.js';
import { writeLanguageObjects } from './write/languages.js';
import { correctRoute, rephraseRoute } from './write/routes.js';

export type { QualityOptions } from './quality/options.js';

/** The options of the language tools (a `TypeError` or `RangeError` names a wrong one). */
export interface LanguageToolsOptions {
  /** Quality evaluation: its threads' time limit and heap cap (quality/options.ts). */
  quality?: QualityOptions;
  /**
   * Load the models and helpers at start (default true): detection, Harper, the English dictionaries, a
   * Hunspell process per installed language, Grammalecte, a quality thread; `/ready` answers 503 until they
   * are loaded, and the first request after it is as fast as later ones (a cold one took 8.7 to 28.8 s).
   * False: each loads on its first use, and `/ready` does not wait (tests, tools that rarely use them).
   */
  warmUp?: boolean;
}

/**
 * Language tools for `@glossa/server`: text improvement (`/v2/write/rephrase`, `/v2/write/correct`: Harper
 * for English, Hunspell and Grammalecte for other languages), language detection (`/v3/detect/language`)
 * and quality evaluation (`/v1/quality-evaluation` jobs on the server's job runner, their request and report
 * job files shared by every instance of a fleet; the synchronous alias `/v3/quality/evaluate`).
 */
export function languageToolsFeature(options: LanguageToolsOptions = {}): ServerFeature {
  const quality = resolveQualityOptions(options.quality);
  if (options.warmUp !== undefined && typeof options.warmUp !== 'boolean')
    throw new TypeError(`warmUp: expected a boolean, got ${String(options.warmUp)}`);
  return {
    name: '@glossa/server-language-tools',
    routes: [
      rephraseRoute,
      correctRoute,
      detectLanguageRoute,
      submitQualityEvaluationRoute,
      pollQualityEvaluationRoute,
      evaluateQualityRoute,
    ],
    resources: { write: () => writeLanguageObjects() },
    start(context, log) {
      const release = retainWriteHelpers();
      const qualityService = startQualityJobs(context, quality);
      const readiness = trackReadiness(
        options.warmUp === false ? undefined : warmUpLanguageTools(qualityServiceOf(context).pool),
        log,
        'the language tools',
      );
      return {
        ready: () => readiness.ready(),
        close: async () => {
          readiness.closing();
          await qualityService.close();
          release();
        },
      };
    },
  };
}
