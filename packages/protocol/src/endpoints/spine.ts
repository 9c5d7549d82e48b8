import { CustomTagUsageQuery, CustomTagUsageResponse } from '../analytics.js';
import type { EndpointDefinition } from '../endpoint.js';
import {
  GlossaryLanguagePairsResponse,
  LanguagesQuery,
  LanguagesResponse,
  LanguagesV2Query,
  LanguagesV2Response,
  ResourcesResponse,
} from '../language-support.js';
import { MAX_TRANSLATE_REQUEST_BYTES } from '../limits.js';
import { REPORTING_TAG_HEADER, TranslateRequest, TranslateResponse } from '../translate.js';
import { UsageResponse } from '../usage.js';

/** Translate, languages, usage and analytics: the endpoints every deployment serves first. */
export const SPINE_ENDPOINTS = {
  translateText: {
    method: 'POST',
    path: '/v2/translate',
    operationId: 'translateText',
    billed: true,
    summary: 'Translate text',
    group: 'translate',
    access: 'any',
    body: TranslateRequest,
    encodings: ['json', 'form'],
    maxBodyBytes: MAX_TRANSLATE_REQUEST_BYTES,
    headers: [REPORTING_TAG_HEADER],
    status: 200,
    response: TranslateResponse,
    notes:
      'Cross-field rules: checkTranslateRules. X-Service-Reporting-Tag: normalizeReportingTag. ' +
      'show_translation_memory_matches needs an account with the option, else 400.',
  },
  getLanguages: {
    method: 'GET',
    path: '/v3/languages',
    operationId: 'getLanguages',
    summary: 'Languages supported by a resource, with their features',
    group: 'languages',
    access: 'any',
    query: LanguagesQuery,
    status: 200,
    response: LanguagesResponse,
  },
  getLanguageResources: {
    method: 'GET',
    path: '/v3/languages/resources',
    operationId: 'getLanguageResources',
    summary: 'Resources and the features each can report',
    group: 'languages',
    access: 'any',
    status: 200,
    response: ResourcesResponse,
  },
  getLanguagesV2: {
    method: 'GET',
    path: '/v2/languages',
    operationId: 'getLanguagesV2',
    summary: 'Source or target languages of text translation (deprecated: use GET /v3/languages)',
    group: 'languages',
    access: 'any',
    deprecated: true,
    query: LanguagesV2Query,
    status: 200,
    response: LanguagesV2Response,
  },
  getGlossaryLanguagePairs: {
    method: 'GET',
    path: '/v2/glossary-language-pairs',
    operationId: 'getGlossaryLanguagePairs',
    summary: 'Language pairs glossaries support (deprecated: use GET /v3/languages?resource=glossary)',
    group: 'languages',
    access: 'any',
    deprecated: true,
    status: 200,
    response: GlossaryLanguagePairsResponse,
  },
  getUsage: {
    method: 'GET',
    path: '/v2/usage',
    operationId: 'getUsage',
    summary: 'Characters used and the limit in the current period (paid plans add per-product counts)',
    group: 'usage',
    access: 'any',
    status: 200,
    response: UsageResponse,
  },
  getCustomTagUsage: {
    method: 'GET',
    path: '/v2/admin/analytics/custom-tags',
    operationId: 'getCustomTagUsage',
    summary: 'Usage per custom reporting tag over a date range (organization administrators)',
    group: 'usage',
    access: 'admin',
    query: CustomTagUsageQuery,
    status: 200,
    response: CustomTagUsageResponse,
    notes:
      'Range rule (at most 366 days): checkAnalyticsRange. Pages: pass next_page as page until it is null.',
  },
} as const satisfies Record<string, EndpointDefinition>;
