export { BackendReadError, GlossaBackend, type GlossaBackendOptions } from './backend.js';
export {
  type BuildOptions,
  buildCatalog,
  type Catalog,
  CatalogError,
  type CatalogExtraction,
  type CatalogOptions,
  type CatalogValue,
  detectSyntax,
  extractCatalog,
  type KeptValue,
  MESSAGE_SYNTAXES,
  type MessageSyntax,
} from './catalog.js';
export { flattenCatalog, type MergeResult, mergeReviewed, unflattenCatalog } from './human.js';
export type { ServiceOptions } from './service.js';
