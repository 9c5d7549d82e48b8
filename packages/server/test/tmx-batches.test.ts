/**
 * Issue 31: a TMX import hands its segments on in batches bounded by characters as well as by units, so
 * long segments do not pile up millions of characters (and their copies) in one batch.
 */
import { describe, expect, it } from 'vitest';
import type { SegmentInput } from '../src/memories/postings.js';
import { MAX_BATCH_CHARACTERS, MAX_SEGMENT_CHARACTERS, readTmx } from '../src/memories/tmx.js';

const side = MAX_SEGMENT_CHARACTERS - 1000;
const unitCharacters = 2 * side;

async function* document(units: number) {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="en"/><body>\n';
  for (let i = 0; i < units; i++) {
    yield `<tu><tuv xml:lang="en"><seg>${'a'.repeat(side - 6)} s${String(i).padStart(4, '0')}</seg></tuv><tuv xml:lang="es"><seg>${'b'.repeat(side - 6)} t${String(i).padStart(4, '0')}</seg></tuv></tu>\n`;
  }
  yield '</body></tmx>\n';
}

const characters = (batch: readonly SegmentInput[]) =>
  batch.reduce((sum, segment) => sum + segment.source.length + segment.targets[0]!.text.length, 0);

describe('readTmx batches', () => {
  it('hands a batch on once it holds MAX_BATCH_CHARACTERS, short of batchSize units, losing none', async () => {
    const units = 3 * Math.ceil(MAX_BATCH_CHARACTERS / unitCharacters) + 1;
    const batches: SegmentInput[][] = [];
    const summary = await readTmx(document(units), (batch) => void batches.push(batch), 1000);
    expect(summary.segments).toBe(units);
    expect(batches.length).toBeGreaterThanOrEqual(3);
    for (const batch of batches) {
      expect(characters(batch)).toBeLessThan(MAX_BATCH_CHARACTERS + unitCharacters);
    }
    const sources = batches.flat().map((segment) => segment.source.slice(-5));
    expect(sources).toEqual(Array.from({ length: units }, (_, i) => `s${String(i).padStart(4, '0')}`));
  });

  it('still hands short segments on by batchSize', async () => {
    const batches: number[] = [];
    async function* short() {
      yield '<tmx version="1.4"><header srclang="en"/><body>';
      for (let i = 0; i < 25; i++)
        yield `<tu><tuv xml:lang="en"><seg>a ${i}</seg></tuv><tuv xml:lang="es"><seg>b ${i}</seg></tuv></tu>`;
      yield '</body></tmx>';
    }
    await readTmx(short(), (batch) => void batches.push(batch.length), 10);
    expect(batches).toEqual([10, 10, 5]);
  });
});
