export type { CreateAccountOptions, CreatedAccount } from './accounts.js';
export type { EngineFormality, EngineInput, LanguagePair, TranslationEngine } from './engines/engine.js';
export { EngineError } from './engines/engine.js';
export { ServiceError } from './errors.js';
export type { ServerOptions } from './options.js';
export type { ResourceStore } from './resources.js';
export { createServer, type GlossaServer, startServer } from './server.js';
export { createSqliteStorage } from './storage/sqlite.js';
export type { Account, Plan, Storage } from './storage/storage.js';
