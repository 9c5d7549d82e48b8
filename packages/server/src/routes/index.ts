import { detectLanguageRoute } from '../detect/routes.js';
import { DOCUMENT_ROUTES } from '../documents/routes.js';
import { GLOSSARY_ROUTES } from '../glossaries/routes.js';
import type { Route } from '../http/route.js';
import { MEMORY_ROUTES } from '../memories/routes.js';
import { evaluateQualityRoute } from '../quality/routes.js';
import { STYLE_RULE_ROUTES } from '../style-rules/routes.js';
import { VOICE_ROUTES } from '../voice/index.js';
import { correctRoute, rephraseRoute } from '../write/routes.js';
import { analyticsRoute } from './analytics.js';
import { glossaryPairsRoute, languagesRoute, languagesV2Route, resourcesRoute } from './languages.js';
import { translateRoute } from './translate.js';
import { usageRoute } from './usage.js';

/** Every route both plan listeners serve, each bound to its entry of the protocol's ENDPOINTS table. */
export const ROUTES: readonly Route[] = [
  translateRoute,
  usageRoute,
  languagesRoute,
  resourcesRoute,
  languagesV2Route,
  glossaryPairsRoute,
  analyticsRoute,
  ...GLOSSARY_ROUTES,
  ...STYLE_RULE_ROUTES,
  ...MEMORY_ROUTES,
  rephraseRoute,
  correctRoute,
  detectLanguageRoute,
  evaluateQualityRoute,
  ...DOCUMENT_ROUTES,
  ...VOICE_ROUTES,
];
