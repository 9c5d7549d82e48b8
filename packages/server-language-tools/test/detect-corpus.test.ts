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
  it('short texts (15 to 50 characters, 33 languages): at least 95% right, at most 2% a wrong language', () => {
    const { total, right, wrong } = share('short');
    expect(total).toBe(825);
    expect(right).toBeGreaterThanOrEqual(0.95);
    expect(wrong).toBeLessThanOrEqual(0.02);
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

  it('names and terms in another script, identifiers, scripts of one language, Danish and Norwegian spellings', () => {
    const answer = (text: string) => {
      const result = detector.detect(text);
      return result.detection_status === 'success' ? result.detected_language : result.detection_status;
    };
    // Catalogue messages of this corpus that were missed before (Latin names inside other scripts).
    expect(answer('ROM של Game Boy Advance')).toBe('he');
    expect(answer('maxconnectionsの設定')).toBe('ja');
    expect(answer('PostScript 文档（gzip 压缩）')).toBe('zh');
    expect(answer('ملف تعريف Kaitai Struct')).toBe('ar');
    // Identifiers carry no language: "mv850e1", "OpenOffice", "PrevTimeLineID" are not English words.
    expect(answer('mv850e1 El código está destinado para el v850e1')).toBe('es');
    expect(answer('Modello OpenOffice Draw')).toBe('it');
    // A script none of the 33 writes (Tamil, Devanagari) is outside them, whatever Latin terms it holds.
    expect(answer('ICNS உருவடிவ வகை')).toBe('unsupported_language');
    expect(answer('SIGNAL संदेश: The INTERFACE शीर्षक')).toBe('unsupported_language');
    // Danish -tion, Norwegian -ert and endre.
    expect(answer('fil: ugyldig filoperation')).toBe('da');
    expect(answer('Tagg er ikke definert.')).toBe('nb');
    expect(answer('Endrer navn på til')).toBe('nb');
    // Yiddish's own letters: not Hebrew.
    expect(answer('איך װיל עסן')).toBe('unsupported_language');
  });
});
