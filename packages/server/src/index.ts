export type { CreateAccountOptions, CreatedAccount } from './accounts.js';
export { type CliIo, type FeatureFactory, runCli } from './cli.js';
export type { CliSettings } from './cli-config.js';
export {
  type ApertiumEngine,
  type ApertiumEngineOptions,
  createApertiumEngine,
} from './engines/apertium.js';
export type { EngineFormality, EngineInput, LanguagePair, TranslationEngine } from './engines/engine.js';
export { EngineError } from './engines/engine.js';
export { createPseudoEngine } from './engines/pseudo.js';
export { createUpstreamEngine, type UpstreamEngineOptions } from './engines/upstream.js';
export { ServiceError } from './errors.js';
export type { ServerFeature } from './features.js';
export type { BuiltInEngine, ServerOptions } from './options.js';
export type { ResourceStore } from './resources.js';
export {
  type CreateServerOptions,
  createServer,
  type GlossaServer,
  type JobsOptions,
  startServer,
} from './server.js';
export { createPostgresStorage, type PostgresStorage } from './storage/postgres.js';
export { createSqliteStorage } from './storage/sqlite.js';
export type { Account, Plan, Storage } from './storage/storage.js';
