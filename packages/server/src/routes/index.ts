import type { Route } from '../http/route.js';
import { translateRoute } from './translate.js';
import { usageRoute } from './usage.js';

/** Every route both plan listeners serve. */
export const ROUTES: readonly Route[] = [translateRoute, usageRoute];
