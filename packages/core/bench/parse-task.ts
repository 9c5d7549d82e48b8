// A parse-heavy adapter task for the pool benchmark: an ICU + i18next catalog (JSON) → segments.
import { encodeWithCodes, extractIcu, i18nextCodes } from '../src/index.js';

export function extractCatalog(input: { json: string }): number {
  const data = JSON.parse(input.json) as Record<string, string>;
  let segments = 0;
  for (const [key, text] of Object.entries(data)) {
    if (text.includes(', plural,')) segments += extractIcu(text, key).segments.length;
    else if (encodeWithCodes(text, i18nextCodes).source) segments++;
  }
  return segments;
}
