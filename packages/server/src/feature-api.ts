/**
 * `@glossa/server/feature`: what a feature package builds on (the contract, routes, errors, the service
 * context and the translate pipeline's parts it reuses). Applications import `@glossa/server` instead.
 */
export type { Caller, ServiceContext } from './context.js';
export { refuseEarlierJobStores } from './earlier-stores.js';
export { type BilledInput, createEngineBill } from './engines/billing.js';
export type { KeptSource } from './engines/chain.js';
export { EngineError } from './engines/engine.js';
export { withKeptSegments } from './engines/kept-source.js';
export type { EngineChoice, EngineRegistry } from './engines/registry.js';
export { badRequest, notFound, ServiceError, unsupportedLanguage } from './errors.js';
export type { RunningFeature, ServerFeature } from './features.js';
export { glossaryDictionary } from './glossaries/dictionary.js';
export type { EntryList } from './glossaries/entries.js';
export { sharedHelperLifetime } from './helper-lifetime.js';
export { unsupportedMediaType } from './http/body.js';
export { readUpload, tooLarge, type Upload } from './http/multipart.js';
export { defineRoute, type Route, type RouteInput } from './http/route.js';
export {
  type JobFiles,
  JobLimitExceeded,
  JobSuperseded,
  type UsageCharge,
  usageOperationId,
} from './jobs/job-backend.js';
export {
  createJobRunner,
  JobFailed,
  type JobInfo,
  type JobKind,
  type JobQueue,
  type JobRunner,
  type JobRunnerOptions,
  type JobStatus,
  RunnerClosing,
  type RunningJob,
} from './jobs/job-runner.js';
export type { LanguageInput } from './languages.js';
export {
  onMemoryPressure,
  reserveMemory,
  reserveMemoryPatiently,
  type Sized,
  withMemory,
} from './memory-budget.js';
export { migratePostgres } from './storage/postgres.js';
export { transaction as pgTransaction } from './storage/postgres-resources.js';
export { migrateSqlite } from './storage/sqlite-migrate.js';
export { currentBillingPeriod, utcDay } from './translate/billing-period.js';
export { loadCustomizations } from './translate/customizations.js';
export {
  decodeEntities,
  END_TAG,
  HTML_RAW_TEXT,
  HTML_VOID,
  MAX_MARKUP_DEPTH,
  rawTextEnd,
  SPECIALS,
  START_TAG,
} from './translate/markup-parse.js';
export { checkResources, engineFormality } from './translate/options.js';
export {
  HTML_BLOCKS,
  keepInitialCase,
  markedNoTranslate,
  type PreparedText,
  type PrepareOptions,
  prepareText,
} from './translate/prepare.js';
export { inTurns, nextTurn } from './turns.js';
