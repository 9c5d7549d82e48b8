export { XliffError } from './errors.js';
export { extractXliff, readXliffTargets, type XliffExtraction } from './extract.js';
export type {
  SegmentState,
  XliffDocument,
  XliffFile,
  XliffSegment,
  XliffUnit,
  XliffVersion,
} from './model.js';
export { parseXliff } from './read.js';
export { type ExportOptions, exportXliff, type ImportedTarget, importXliff, segmentKey } from './segments.js';
export { type TranslateXliffOptions, type TranslateXliffResult, translateXliff } from './translate.js';
export { serializeXliff } from './write.js';
