import type { ResolvedOptions } from '../options.js';
import type { TranslationEngine } from './engine.js';
import { createPseudoEngine } from './pseudo.js';

/** The engines a server runs when none are given, in priority order. */
export function defaultEngines(_options: ResolvedOptions): TranslationEngine[] {
  return [createPseudoEngine()];
}
