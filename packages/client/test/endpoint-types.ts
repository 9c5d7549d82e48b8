/**
 * Compile-time checks (run by `pnpm typecheck`, not by Vitest): each method that returns a response as
 * the service sent it returns exactly the protocol's type for that endpoint, so a change to a schema in
 * @glossa/protocol that the client does not follow fails the type check.
 */
import type { EndpointResponse } from '@glossa/protocol';
import type { GlossaClient } from '../src/index.js';

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Resolves<F> = F extends (...args: never[]) => Promise<infer R> ? R : never;

export const endpointTypeChecks: true[] = [
  true as Same<Resolves<GlossaClient['translateTextResponse']>, EndpointResponse<'translateText'>>,
  true as Same<Resolves<GlossaClient['rephraseText']>, EndpointResponse<'rephraseText'>>,
  true as Same<Resolves<GlossaClient['correctText']>, EndpointResponse<'correctText'>>,
  true as Same<Resolves<GlossaClient['detectLanguage']>, EndpointResponse<'detectLanguage'>>,
  true as Same<Resolves<GlossaClient['evaluateQuality']>, EndpointResponse<'evaluateQuality'>>,
  true as Same<
    Resolves<GlossaClient['submitQualityEvaluation']>,
    EndpointResponse<'submitQualityEvaluation'>
  >,
  true as Same<Resolves<GlossaClient['getQualityEvaluation']>, EndpointResponse<'pollQualityEvaluation'>>,
  true as Same<
    Resolves<GlossaClient['voice']['createTranslateJob']>,
    EndpointResponse<'createVoiceTranslateJob'>
  >,
  true as Same<
    Resolves<GlossaClient['voice']['getTranslateJob']>,
    EndpointResponse<'getVoiceTranslateJobStatus'>
  >,
  true as Same<Resolves<GlossaClient['getLanguages']>, EndpointResponse<'getLanguages'>>,
  true as Same<Resolves<GlossaClient['getResources']>, EndpointResponse<'getLanguageResources'>>,
  true as Same<Resolves<GlossaClient['getUsage']>, EndpointResponse<'getUsage'>>,
  true as Same<Resolves<GlossaClient['customTagUsagePage']>, EndpointResponse<'getCustomTagUsage'>>,
  true as Same<Resolves<GlossaClient['glossaries']['create']>, EndpointResponse<'createGlossary'>>,
  true as Same<Resolves<GlossaClient['glossaries']['get']>, EndpointResponse<'getGlossary'>>,
  true as Same<Resolves<GlossaClient['styleRules']['create']>, EndpointResponse<'createStyleRuleList'>>,
  true as Same<Resolves<GlossaClient['styleRules']['get']>, EndpointResponse<'getStyleRuleList'>>,
  true as Same<
    Resolves<GlossaClient['translationMemories']['list']>,
    EndpointResponse<'listTranslationMemories'>
  >,
  true as Same<
    Resolves<GlossaClient['translationMemories']['get']>,
    EndpointResponse<'getTranslationMemory'>
  >,
  true as Same<
    Resolves<GlossaClient['translationMemories']['getJob']>,
    EndpointResponse<'getTranslationMemoryJob'>
  >,
  true as Same<Resolves<GlossaClient['documents']['upload']>, EndpointResponse<'uploadDocument'>>,
  true as Same<Resolves<GlossaClient['documents']['getStatus']>, EndpointResponse<'getDocumentStatus'>>,
  true as Same<Resolves<GlossaClient['voice']['createSession']>, EndpointResponse<'createVoiceSession'>>,
  true as Same<Resolves<GlossaClient['voice']['getSpokenTerms']>, EndpointResponse<'getSpokenTerms'>>,
  true as Same<Resolves<GlossaClient['voice']['getJob']>, EndpointResponse<'getVoiceJob'>>,
  true as Same<Resolves<GlossaClient['voice']['getJobResult']>, EndpointResponse<'getVoiceJobResult'>>,
];
