import { GLOSSARY_ROUTES } from '../glossaries/routes.js';
import type { Route } from '../http/route.js';
import { MEMORY_ROUTES } from '../memories/routes.js';
import { STYLE_RULE_ROUTES } from '../style-rules/routes.js';
import { analyticsRoute } from './analytics.js';
import { glossaryPairsRoute, languagesRoute, languagesV2Route, resourcesRoute } from './languages.js';
import { translateRoute } from './translate.js';
import { usageRoute } from './usage.js';

/** The spine's routes (both plan listeners serve them), each bound to its entry of the protocol's ENDPOINTS table. */
export const SPINE_ROUTES: readonly Route[] = [
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
];
