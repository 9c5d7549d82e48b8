/**
 * Language detection on real texts nobody here wrote: messages from the gettext catalogues Debian installs
 * (bench/data/detect-debian.tsv, built by bench/make-detect-debian.mjs; sources and licences in
 * bench/data/README.md). Per length bucket: right answers, wrong languages and abstentions for the 33
 * languages; for languages outside the 33, the share answered `unsupported_language`.
 * Run: npx tsx --conditions @glossa/source bench/detect-debian.ts [--misses]
 */
import { readFileSync } from 'node:fs';
import { createLanguageDetector, type EldModel } from '../src/detect/detector.js';

export interface DebianText {
  readonly label: string;
  readonly bucket: 'short' | 'long';
  readonly catalogue: string;
  readonly text: string;
}

export function readDebianTexts(): DebianText[] {
  return readFileSync(new URL('data/detect-debian.tsv', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [label, bucket, catalogue, text] = line.split('\t') as [string, 'short' | 'long', string, string];
      return { label, bucket, catalogue, text };
    });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const showMisses = process.argv.includes('--misses');
  const modelArg = process.argv.find((arg) => arg.startsWith('--model='))?.slice('--model='.length);
  const detector = await createLanguageDetector({ model: (modelArg ?? 'large') as EldModel });
  console.log(`eld model: ${modelArg ?? 'large'}`);
  const texts = readDebianTexts();
  const tally = new Map<string, { right: number; wrong: number; abstained: number; total: number }>();
  const perLanguage = new Map<string, { right: number; total: number }>();
  for (const { label, bucket, text } of texts) {
    const result = detector.detect(text);
    const unsupported = label.startsWith('unsupported:');
    const key = unsupported ? 'unsupported' : bucket;
    const entry = tally.get(key) ?? { right: 0, wrong: 0, abstained: 0, total: 0 };
    entry.total++;
    const answer = result.detection_status === 'success' ? result.detected_language : result.detection_status;
    const right = unsupported ? answer === 'unsupported_language' : answer === label;
    if (right) entry.right++;
    else if (result.detection_status === 'success') entry.wrong++;
    else entry.abstained++;
    tally.set(key, entry);
    const language = perLanguage.get(label) ?? { right: 0, total: 0 };
    language.total++;
    if (right) language.right++;
    perLanguage.set(label, language);
    if (showMisses && !right) console.log(`  miss ${label} ${bucket} → ${answer}: ${text}`);
  }
  for (const [key, { right, wrong, abstained, total }] of tally) {
    console.log(
      `${key}: ${total} texts: right ${pct(right, total)}, wrong language ${pct(wrong, total)}, ` +
        `${key === 'unsupported' ? 'success or other status' : 'abstained'} ${pct(abstained, total)}`,
    );
  }
  const weak = [...perLanguage].filter(([, { right, total }]) => right / total < 0.9);
  console.log(
    `under 90%: ${weak.map(([label, { right, total }]) => `${label} ${right}/${total}`).join(', ')}`,
  );
  detector.close();
}

function pct(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1)}%`;
}
