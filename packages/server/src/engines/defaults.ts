import type { ResolvedOptions } from '../options.js';
import { createApertiumEngine } from './apertium.js';
import type { TranslationEngine } from './engine.js';
import { createPseudoEngine } from './pseudo.js';
import { createUpstreamEngine } from './upstream.js';

/**
 * The engines a server runs when none are given, in priority order (`engineOrder`, by default): pseudo
 * (the pseudo-locales), Apertium (the pairs installed on this machine, none when Apertium is absent), then
 * the upstream service when one is configured, for every pair the local engines lack.
 */
export async function defaultEngines(options: ResolvedOptions): Promise<TranslationEngine[]> {
  const engines: TranslationEngine[] = [];
  for (const name of options.engineOrder) {
    if (name === 'pseudo') engines.push(createPseudoEngine());
    else if (name === 'apertium') engines.push(createApertiumEngine());
    else if (options.upstream) {
      engines.push(
        await createUpstreamEngine({ baseUrl: options.upstream.url, authKey: options.upstream.key }),
      );
    }
  }
  return engines;
}
