export { BackendReadError, GlossaBackend, type GlossaBackendOptions } from './backend.js';
export {
  type BuildOptions,
  buildCatalog,
  type Catalog,
  CatalogError,
  type CatalogExtraction,
  type CatalogOptions,
  type CatalogValue,
  extractCatalog,
} from './catalog.js';
export type { ServiceOptions } from './service.js';
