import { execFile } from 'node:child_process';
import { crc32 } from 'node:zlib';
import sharp, { type OverlayOptions } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateFile, upload, waitDone } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const WIDTH = 900;
const HEIGHT = 320;

/** Text rendered by sharp (Pango), as an overlay. */
async function label(text: string, colour: string, left: number, top: number): Promise<OverlayOptions> {
  const input = await sharp({
    text: {
      text: `<span foreground="${colour}">${text}</span>`,
      font: 'DejaVu Sans 30',
      dpi: 96,
      rgba: true,
    },
  })
    .png()
    .toBuffer();
  return { input, left, top };
}

/** A poster: black text on white, and white text on a dark blue band. */
async function poster(format: 'png' | 'jpeg'): Promise<Buffer> {
  const band = {
    input: { create: { width: WIDTH, height: 120, channels: 4 as const, background: '#1c2e6b' } },
  };
  const image = sharp({
    create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#ffffff' },
  }).composite([
    await label('The house is big.', '#000000', 40, 40),
    { ...band, left: 0, top: 180 },
    await label('Good morning, my friend.', '#ffffff', 40, 215),
  ]);
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 95 }).toBuffer();
}

/** Tesseract on the image; `psm` 6 reads it as one block of text (pseudo-localized words are no language). */
function ocr(image: Buffer, lang: string, psm = 3): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'tesseract',
      ['stdin', 'stdout', '-l', lang, '--psm', String(psm)],
      { env: { ...process.env, OMP_THREAD_LIMIT: '1' } },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
    child.stdin?.end(image);
  });
}

describe('image documents (beta), Tesseract OCR and sharp', () => {
  it('the test poster reads back as its English text (the OCR this test relies on works)', async () => {
    const text = await ocr(await poster('png'), 'eng');
    expect(text).toContain('The house is big.');
    expect(text).toContain('Good morning, my friend.');
  });

  it('png with the pseudo engine: same size and format, the blocks redrawn as en-XA text', async () => {
    const { bytes, final } = await translateFile(t, 'poster.png', await poster('png'));
    expect(final.billed_characters).toBe('The house is big.'.length + 'Good morning, my friend.'.length);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', WIDTH, HEIGHT]);
    const read = await ocr(bytes, 'eng', 6);
    const lines = read.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(2);
    // Each block drawn bracketed and accented, as en-XA pseudo-localization writes it.
    expect(lines[0]).toMatch(/^\[Th.*big/i);
    expect(lines[1]).toMatch(/^\[.*myy fri/);
    expect(read).toMatch(/[\u00c0-\u024f]/u);
    expect(read).not.toMatch(/house|morning|friend/);
  });

  it('jpg with Apertium en→es: the Spanish words are read in the image', async () => {
    const { bytes } = await translateFile(t, 'poster.jpg', await poster('jpeg'), {
      target_lang: 'ES',
      source_lang: 'EN',
    });
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', WIDTH, HEIGHT]);
    const read = await ocr(bytes, 'spa');
    expect(read).toContain('La casa es grande.');
    expect(read).toMatch(/Buenos d[ií]as, mi amigo\./);
    expect(read).not.toMatch(/house|morning/);
    // The band stays dark blue where the text was (the background colour was sampled, not white).
    const { data } = await sharp(bytes).extract({ left: 600, top: 190, width: 1, height: 1 }).raw().toBuffer({
      resolveWithObject: true,
    });
    expect(data[2]!).toBeGreaterThan(data[0]! + 40);
  });
});

describe('image documents that cannot be translated', () => {
  it('a PNG named .jpg, or bytes that are no image: 400 naming the problem, nothing created', async () => {
    const png = await upload(t, 'photo.jpg', await poster('png'));
    expect([png.status, png.data.message]).toEqual([400, 'The JPEG document is not a JPEG image.']);
    const junk = await upload(t, 'photo.png', 'not an image at all');
    expect([junk.status, junk.data.message]).toEqual([400, 'The PNG document is not a readable image.']);
  });

  it('an image over 50,000,000 pixels (a 10,000 × 6,000 header): 413 before it is decoded', async () => {
    const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    // IHDR starts at byte 8: length (4), type (4), width (4), height (4), …, CRC over type and data.
    png.writeUInt32BE(10_000, 16);
    png.writeUInt32BE(6_000, 20);
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
    const reply = await upload(t, 'huge.png', png);
    expect(reply.status).toBe(413);
    expect(reply.data.message).toBe(
      'Image too large: PNG documents may be at most 50000000 pixels (width × height).',
    );
  });

  it('an image without text: the job ends in error saying so, billed nothing', async () => {
    const blank = await sharp({ create: { width: 200, height: 120, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const uploaded = await upload(t, 'blank.png', blank);
    expect(uploaded.status).toBe(200);
    expect(await waitDone(t, uploaded.data)).toMatchObject({
      status: 'error',
      error_message:
        'No text could be read in the PNG image: OCR (Tesseract) found no words it could read with confidence, so there is nothing to translate. Nothing was billed.',
    });
  });
});
