import type { RunSegment } from '../../src/index.js';

/** A deterministic catalog of `n` segments with codes, about 200 characters each. */
export function catalog(n: number, file = 'locales/en/app.json'): RunSegment[] {
  return Array.from({ length: n }, (_, i) => ({
    key: `${file}#message.${i}`,
    file,
    source: `Message ${i}: open the <g id="1">settings page</g> to change <x id="2"/> and review item ${i} before the deadline; the team will follow up with a summary of every change made.`,
    position: { line: i + 2, column: 3 },
  }));
}
