// A parse-heavy adapter task for the worker pool: i18next JSON catalog → segments with codes.
import { encodeWithCodes, i18nextCodes, type RunSegment } from '@glossa/core';

export function extractCatalog(input: { file: string; json: string }): RunSegment[] {
  const data = JSON.parse(input.json) as Record<string, string>;
  return Object.entries(data).map(([key, text]) => ({
    key: `${input.file}#${key}`,
    file: input.file,
    source: encodeWithCodes(text, i18nextCodes).source,
  }));
}

export function fail(): never {
  throw new Error('adapter failed on purpose');
}
