import { DEFAULT_ENGINE_ORDER, type ResolvedOptions } from '../options.js';
import { createSourceDetector } from '../translate/detect-source.js';
import { createAnthropicEngine } from './anthropic.js';
import { createApertiumEngine } from './apertium.js';
import { createDeeplEngine } from './deepl.js';
import type { TranslationEngine } from './engine.js';
import { createGoogleEngine } from './google.js';
import { recordKeptSource } from './kept-source.js';
import { createLibreTranslateEngine } from './libretranslate.js';
import { createOpenAiEngine } from './openai.js';
import { createPseudoEngine } from './pseudo.js';
import { createEngineRegistry, type EngineOrder, type EngineRegistry } from './registry.js';
import { createUpstreamEngine } from './upstream.js';

/**
 * The engines a server runs when none are given: every engine the order names (`engineOrder`, by default
 * pseudo (the pseudo-locales), Apertium (the pairs installed on this machine, none when Apertium is absent),
 * then the upstream service when one is configured). The remote engines read their settings from
 * `providers` and then the provider's own environment variables; one named without its key fails the start.
 */
export async function defaultEngines(options: ResolvedOptions): Promise<TranslationEngine[]> {
  const engines: TranslationEngine[] = [];
  const { providers } = options;
  for (const name of options.engineOrder) {
    if (name === 'pseudo') engines.push(createPseudoEngine());
    else if (name === 'apertium') engines.push(createApertiumEngine());
    else if (name === 'openai') engines.push(createOpenAiEngine(providers.openai));
    else if (name === 'anthropic') engines.push(createAnthropicEngine(providers.anthropic));
    else if (name === 'deepl') engines.push(createDeeplEngine(providers.deepl));
    else if (name === 'google') engines.push(createGoogleEngine(providers.google));
    else if (name === 'libretranslate')
      engines.push(await createLibreTranslateEngine(providers.libretranslate));
    else if (options.upstream) {
      engines.push(
        await createUpstreamEngine({ baseUrl: options.upstream.url, authKey: options.upstream.key }),
      );
    }
  }
  return engines;
}

/**
 * The registry of a server: `engines` served per the configured order (per target and pair, see
 * `EngineOrder`), remote engines behind the "never worse" chain, which checks outputs' language with the
 * server's detector.
 */
export function createConfiguredRegistry(
  engines: readonly TranslationEngine[],
  options: ResolvedOptions,
  given: boolean,
): EngineRegistry {
  // Engines passed in by a caller (`createServer({ engines })`) keep their own order unless one is set.
  const order: EngineOrder | undefined =
    given && options.engineOrder === DEFAULT_ENGINE_ORDER
      ? undefined
      : (options.enginesByTarget as EngineOrder);
  const detector = createSourceDetector();
  return createEngineRegistry(engines, order, {
    detect: (text, candidates) => detector.detect(text, candidates),
    // Each event goes to the request being answered (its kept-source header) and to the server's option.
    onKeptSource: (event) => {
      recordKeptSource(event);
      options.onKeptSource?.(event);
    },
  });
}
