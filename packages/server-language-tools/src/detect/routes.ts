import { ENDPOINTS } from '@glossa/protocol';
import { defineRoute } from '@glossa/server/feature';
import { sharedLanguageDetector } from './shared.js';

/** POST /v3/detect/language (beta, enrolled accounts): one result per text, same order. */
export const detectLanguageRoute = defineRoute(ENDPOINTS.detectLanguage, async ({ body }) => {
  const detector = await sharedLanguageDetector();
  return { results: await detector.detect(body.text) };
});
