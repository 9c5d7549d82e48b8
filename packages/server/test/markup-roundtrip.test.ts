/**
 * Generated markup (a seeded grammar of paired, self-closing, nested, stray and unclosed tags, comments,
 * entities and text) through tag handling with the pseudo engine and with Apertium (en→es): whatever the input, every tag comes back
 * byte for byte as many times as it was sent, and the text around it is translated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { random } from './test-utils.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
});
afterAll(() => t.close());

const WORDS = ['save', 'the', 'file', 'now', 'Open', 'settings.', 'Click', 'here!', 'and', 'then', 'wait?'];
const NAMES = ['b', 'i', 'a', 'span', 'p', 'div', 'code', 'em', 'x'];

function generate(next: () => number, depth = 0): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  let out = '';
  const parts = 1 + Math.floor(next() * 6);
  for (let i = 0; i < parts; i++) {
    const roll = next();
    if (roll < 0.4) out += `${pick(WORDS)} `;
    else if (roll < 0.6 && depth < 6) {
      const name = pick(NAMES);
      const attribute = next() < 0.3 ? ` href="/x?a=1&amp;b=2" data-n='${i}'` : '';
      out += `<${name}${attribute}>${generate(next, depth + 1)}</${name}>`;
    } else if (roll < 0.7) out += `<${pick(NAMES)} id="${i}"/>`;
    else if (roll < 0.75) out += '<!-- note -->';
    else if (roll < 0.8) out += '&amp; &lt;tag&gt; ';
    else if (roll < 0.85) out += `</${pick(NAMES)}>`;
    else if (roll < 0.9) out += `<${pick(NAMES)}>`;
    else out += '\n';
  }
  return out;
}

const TAG = /<!--[\s\S]*?-->|<\/?[A-Za-z][^<>]*>/g;
const tagCounts = (text: string) => {
  const counts = new Map<string, number>();
  for (const [tag] of text.matchAll(TAG)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return counts;
};

describe('tag handling round trip', () => {
  for (const [mode, target, count] of [
    ['xml', 'en-XA', 300],
    ['html', 'en-XA', 300],
    ['xml', 'ES', 60],
  ] as const) {
    it(`${mode} → ${target}: ${count} generated texts keep every tag, byte for byte`, async () => {
      const next = random(mode === 'xml' ? 7 : 11);
      const texts = Array.from({ length: count }, () => generate(next));
      const failures: string[] = [];
      for (let start = 0; start < texts.length; start += 50) {
        const batch = texts.slice(start, start + 50);
        const reply = await t.translate({
          text: batch,
          target_lang: target,
          source_lang: 'EN',
          tag_handling: mode,
          ignore_tags: 'code',
        });
        expect(reply.status).toBe(200);
        batch.forEach((text, index) => {
          const out: string = reply.data.translations[index].text;
          const sent = tagCounts(text);
          const got = tagCounts(out);
          const same = sent.size === got.size && [...sent].every(([tag, n]) => got.get(tag) === n);
          if (!same) failures.push(`${JSON.stringify(text)} → ${JSON.stringify(out)}`);
          // Without ignored elements, any word must come back translated.
          if (!text.includes('<code') && /\b(save|file|Open|Click)\b/.test(text.replace(TAG, ' '))) {
            if (out === text) failures.push(`untranslated: ${JSON.stringify(text)}`);
          }
        });
      }
      expect(failures.slice(0, 5)).toEqual([]);
    });
  }
});
