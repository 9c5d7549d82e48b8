export type { CreateAccountOptions, CreatedAccount } from './accounts.js';
export { type CliIo, runCli } from './cli.js';
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
export type { ServerOptions } from './options.js';
export type { ResourceStore } from './resources.js';
export { type CreateServerOptions, createServer, type GlossaServer, startServer } from './server.js';
export { createSqliteStorage } from './storage/sqlite.js';
export type { Account, Plan, Storage } from './storage/storage.js';
