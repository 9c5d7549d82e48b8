import { detectLanguageRoute } from '../detect/routes.js';
import type { Route } from '../http/route.js';
import { evaluateQualityRoute } from '../quality/routes.js';
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
  rephraseRoute,
  correctRoute,
  detectLanguageRoute,
  evaluateQualityRoute,
];
