export type { MergeProblem } from '@glossa/core';
export { headingAnchors, headingOutline, rewriteLinks } from './anchors.js';
export { MergeError } from './errors.js';
export { type ExtractMessage, extract, type MarkdownExtraction } from './extract.js';
export { type MergeOptions, merge, type Translations } from './merge.js';
export type { MarkdownOptions, ResolvedMarkdownOptions } from './options.js';
export { type GlossaFileReport, type RemarkGlossaOptions, remarkGlossa } from './plugin.js';
export { githubSlug } from './slugs.js';
