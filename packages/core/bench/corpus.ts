// Deterministic benchmark corpora: UI strings with codes, duplicates, and a 5% source change.
import type { RunSegment } from '../src/index.js';

const WORDS =
  'account settings profile message inbox archive download upload share folder project invoice payment team member invite password security notification calendar event reminder report export import search filter sort preview publish draft review comment reply'.split(
    ' ',
  );

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function sentence(random: () => number, i: number): string {
  const n = 6 + Math.floor(random() * 14);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
  const at = 1 + Math.floor(random() * (n - 2));
  words[at] = `<g id="1">${words[at]}</g>`;
  if (random() < 0.5) words.push(`<x id="2"/>`);
  return `${words.join(' ')} ${i % 7 === 0 ? 'é ü ñ 日本' : ''}.`.replace(' .', '.');
}

/** `n` segments over `files` files; about `duplicates` of them repeat an earlier source. */
export function makeCorpus(n: number, duplicates = 0.3, seed = 42): RunSegment[] {
  const random = rng(seed);
  const segments: RunSegment[] = [];
  for (let i = 0; i < n; i++) {
    const file = `locales/en/page-${i % 50}.json`;
    const source =
      i > 0 && random() < duplicates ? segments[Math.floor(random() * i)]!.source : sentence(random, i);
    segments.push({ key: `${file}#k${i}`, file, source, position: { line: i + 1, column: 1 } });
  }
  return segments;
}

/** Changes the source of about `share` of the segments (a new word at the end). */
export function changeSources(segments: readonly RunSegment[], share: number, seed = 7): RunSegment[] {
  const random = rng(seed);
  return segments.map((s, i) =>
    random() < share ? { ...s, source: s.source.replace(/\.$/, ` updated ${i}.`) } : s,
  );
}
