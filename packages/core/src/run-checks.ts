/** Checks a run makes on segments and targets without calling the service. */
import { inlinePlainText, parseInline } from './codes/inline.js';
import type { RunSegment } from './segment.js';

/** Sources that are not valid inline XML, and keys used twice, with the reason. */
export function checkSources(segments: readonly RunSegment[]): Map<RunSegment, string> {
  const invalid = new Map<RunSegment, string>();
  const keys = new Set<string>();
  for (const segment of segments) {
    if (keys.has(segment.key)) invalid.set(segment, `Segment key '${segment.key}' is used twice`);
    keys.add(segment.key);
    try {
      parseInline(segment.source);
    } catch (error) {
      invalid.set(segment, `Invalid segment source: ${(error as Error).message}`);
    }
  }
  return invalid;
}

/** A message when the target is longer than the segment's `maxLength` (code points, codes excluded). */
export function overLength(segment: RunSegment, target: string): string | undefined {
  if (segment.maxLength === undefined) return undefined;
  const length = [...inlinePlainText(target)].length;
  return length > segment.maxLength
    ? `max_length: the target has ${length} characters, the limit is ${segment.maxLength}`
    : undefined;
}

/** Whether a source has a letter or digit outside its codes (checked without building the plain text). */
export function hasWords(source: string): boolean {
  const words = /<[^>]*>|&[^;]*;|[\p{L}\p{N}]/gu;
  for (let m = words.exec(source); m; m = words.exec(source))
    if (m[0][0] !== '<' && m[0][0] !== '&') return true;
  return false;
}
