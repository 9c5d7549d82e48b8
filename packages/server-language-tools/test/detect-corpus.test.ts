/**
 * Detection measured on real texts nobody here wrote: messages from Debian's gettext catalogues in the 33
 * languages and in 18 others (bench/data/detect-debian.tsv; sources and licences in bench/data/README.md).
 * The bars are the figures measured when this was written, so a change that makes detection worse fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDebianTexts } from '../bench/detect-debian.js';
import { createLanguageDetector, type LanguageDetector } from '../src/detect/detector.js';

let detector: LanguageDetector;
beforeAll(async () => {
  detector = await createLanguageDetector();
});
afterAll(() => detector.close());

function share(bucket: 'short' | 'long' | 'unsupported') {
  const texts = readDebianTexts().filter((text) =>
    bucket === 'unsupported'
      ? text.label.startsWith('unsupported:')
      : !text.label.startsWith('unsupported:') && text.bucket === bucket,
  );
  let right = 0;
  let wrong = 0;
  for (const { label, text } of texts) {
    const result = detector.detect(text);
    if (bucket === 'unsupported') {
      if (result.detection_status === 'unsupported_language') right++;
      else if (result.detection_status === 'success') wrong++;
    } else if (result.detection_status === 'success') {
      if (result.detected_language === label) right++;
      else wrong++;
    }
  }
  return { total: texts.length, right: right / texts.length, wrong: wrong / texts.length };
}

describe('language detection on Debian catalogue texts', () => {
  it('short texts (15 to 50 characters, 33 languages): at least 93% right, at most 2.5% a wrong language', () => {
    const { total, right, wrong } = share('short');
    expect(total).toBe(825);
    expect(right).toBeGreaterThanOrEqual(0.93);
    expect(wrong).toBeLessThanOrEqual(0.025);
  });

  it('long texts (100 to 400 characters): at least 99% right', () => {
    const { total, right, wrong } = share('long');
    expect(total).toBeGreaterThan(300);
    expect(right).toBeGreaterThanOrEqual(0.99);
    expect(wrong).toBeLessThanOrEqual(0.01);
  });

  it('texts in 18 languages outside the 33: at least 90% unsupported_language', () => {
    const { total, right } = share('unsupported');
    expect(total).toBeGreaterThan(600);
    expect(right).toBeGreaterThanOrEqual(0.9);
  });
});
