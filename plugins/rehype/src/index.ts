export type { MergeProblem } from '@glossa/core';
export { MergeError } from './errors.js';
export { extract, type HtmlExtraction } from './extract.js';
export { type MergeOptions, merge, type Translations } from './merge.js';
export type { HtmlOptions, ResolvedHtmlOptions } from './options.js';
export { type GlossaFileReport, type RehypeGlossaOptions, rehypeGlossa } from './plugin.js';
