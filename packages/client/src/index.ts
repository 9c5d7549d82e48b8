export { GlossaClient } from './client.js';
export * from './errors.js';
export {
  type ClientOptions,
  checkReportingTag,
  DEFAULT_FREE_SERVER_URL,
  DEFAULT_SERVER_URL,
  isFreeKey,
  type Logger,
  type RequestOptions,
} from './options.js';
export {
  backoffCeiling,
  computeRetryDelay,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  type RetryPolicy,
} from './retry.js';
export type { TranslateTextOptions } from './translate.js';
