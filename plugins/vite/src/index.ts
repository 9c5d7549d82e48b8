export type { CatalogManifest, CatalogOptions } from './catalogs.js';
export type { ComponentOptions } from './components/extract.js';
export { ComponentSyntaxError } from './components/script.js';
export { MissingTranslationsError } from './errors.js';
export { outputPath } from './links.js';
export { type Alternate, withAlternates } from './localize.js';
export type { GlossaViteOptions } from './options.js';
export { glossaVite } from './plugin.js';
