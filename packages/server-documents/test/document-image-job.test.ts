import { execFile } from 'node:child_process';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocumentIds, download, status, upload } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const WIDTH = 900;
const HEIGHT = 200;
/** The background's grey at column x: white on the left to light grey on the right. */
const grey = (x: number) => Math.round(255 - (x / (WIDTH - 1)) * 75);

/** Black text on a horizontal gradient: one sentence on one line. */
async function gradientPoster(): Promise<Buffer> {
  const background = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++)
    for (let x = 0; x < WIDTH; x++) background.fill(grey(x), (y * WIDTH + x) * 3, (y * WIDTH + x) * 3 + 3);
  const text = await sharp({
    text: { text: 'The house is big and the garden is green.', font: 'DejaVu Sans 30', dpi: 96, rgba: true },
  })
    .png()
    .toBuffer();
  return sharp(background, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .composite([{ input: text, left: 40, top: 80 }])
    .png()
    .toBuffer();
}

function ocr(image: Buffer, lang: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'tesseract',
      ['stdin', 'stdout', '-l', lang],
      { env: { ...process.env, OMP_THREAD_LIMIT: '1' } },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
    child.stdin?.end(image);
  });
}

const usage = async (key: string) => (await t.call('/v2/usage', { key })).data.character_count as number;

/** Polls with the account's key until done or error. */
async function finished(
  ids: DocumentIds,
  key: string,
): Promise<{ status: string; [field: string]: unknown }> {
  for (;;) {
    const reply = await status(t, ids, key);
    if (reply.data.status === 'done' || reply.data.status === 'error') return reply.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('image documents: OCR in the job', () => {
  it('the upload reserves nothing; the job reads, detects English, reserves what it read, covers the gradient', async () => {
    const account = await t.server.createAccount({ plan: 'paid' });
    const poster = await gradientPoster();
    const uploaded = await upload(t, 'poster.png', poster, { target_lang: 'ES' }, { key: account.key });
    expect(uploaded.status).toBe(200);
    expect(await usage(account.key)).toBe(0);
    const final = await finished(uploaded.data, account.key);
    const sentence = 'The house is big and the garden is green.';
    expect(final).toMatchObject({ status: 'done', billed_characters: sentence.length });
    expect(await usage(account.key)).toBe(sentence.length);
    const result = await download(t, uploaded.data, account.key);
    expect(result.status).toBe(200);
    expect(await ocr(result.bytes, 'spa')).toMatch(/La casa es grande y el jard[ií]n es verde\./);

    // The cover carries the gradient on: background pixels of the text's row follow it, left to right.
    const { data } = await sharp(result.bytes).raw().toBuffer({ resolveWithObject: true });
    const channels = data.length / (WIDTH * HEIGHT);
    let error = 0;
    let count = 0;
    for (let y = 80; y < 125; y++)
      for (let x = 30; x < 880; x++) {
        const value = data[(y * WIDTH + x) * channels]!;
        if (value < 100) continue; // ink of the translation
        error += Math.abs(value - grey(x));
        count++;
      }
    expect(count).toBeGreaterThan(20_000);
    expect(error / count).toBeLessThan(8);
  }, 60_000);

  it('an account with too small a quota: the upload is accepted, the job ends in error, nothing billed', async () => {
    const account = await t.server.createAccount({ plan: 'paid', characterLimit: 20 });
    const uploaded = await upload(
      t,
      'poster.png',
      await gradientPoster(),
      { target_lang: 'ES', source_lang: 'EN' },
      {
        key: account.key,
      },
    );
    expect(uploaded.status).toBe(200);
    expect(await finished(uploaded.data, account.key)).toMatchObject({
      status: 'error',
      error_message: 'Quota exceeded: the character limit of this billing period has been reached.',
    });
    expect(await usage(account.key)).toBe(0);
  }, 60_000);

  it('text OCR cannot read (blurred past reading, or no text at all): the job ends in error saying so, nothing billed', async () => {
    const account = await t.server.createAccount({ plan: 'paid' });
    // The gradient poster blurred (σ 6): Tesseract guesses "The Mee ty 4 ee" at 49% confidence.
    const blurred = await sharp(await gradientPoster())
      .blur(6)
      .png()
      .toBuffer();
    const blank = await sharp({ create: { width: 200, height: 120, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    for (const [image, fields] of [
      [blurred, { target_lang: 'ES', source_lang: 'EN' }],
      [blurred, { target_lang: 'ES' }],
      [blank, { target_lang: 'ES' }],
    ] as const) {
      const uploaded = await upload(t, 'unreadable.png', image, fields, { key: account.key });
      expect(uploaded.status).toBe(200);
      expect(await finished(uploaded.data, account.key)).toMatchObject({
        status: 'error',
        error_message:
          'No text could be read in the PNG image: OCR (Tesseract) found no words it could read with confidence, so there is nothing to translate. Nothing was billed.',
      });
    }
    expect(await usage(account.key)).toBe(0);
  }, 60_000);

  it('a poster turned a quarter and upside down: read again turned, drawn upright, turned back', async () => {
    const poster = await sharp({ create: { width: 900, height: 240, channels: 3, background: '#ffffff' } })
      .composite([
        {
          input: await sharp({
            text: {
              text: 'The house is big.\nThe cat is black.',
              font: 'DejaVu Sans 30',
              dpi: 96,
              rgba: true,
            },
          })
            .png()
            .toBuffer(),
          left: 40,
          top: 50,
        },
      ])
      .png()
      .toBuffer();
    for (const turn of [90, 180]) {
      const turned = await sharp(poster).rotate(turn).png().toBuffer();
      const uploaded = await upload(t, 'turned.png', turned, { target_lang: 'ES', source_lang: 'EN' });
      expect((await finished(uploaded.data, t.server.devKey)).status).toBe('done');
      const result = await download(t, uploaded.data);
      const meta = await sharp(result.bytes).metadata();
      expect([meta.width, meta.height]).toEqual(turn === 90 ? [240, 900] : [900, 240]);
      const upright = await sharp(result.bytes)
        .rotate(360 - turn)
        .png()
        .toBuffer();
      const read = await ocr(upright, 'spa');
      expect(read).toContain('La casa es grande.');
      expect(read).toContain('El gato es negro.');
    }
  }, 60_000);

  it('a translation with characters DejaVu Sans lacks: the job says so (no image with empty boxes), nothing billed', async () => {
    const account = await t.server.createAccount({ plan: 'paid' });
    const glossaryId = await t.glossary('en', 'es', 'house\t家', { key: account.key });
    const fields = { target_lang: 'ES', source_lang: 'EN', glossary_id: glossaryId };
    const uploaded = await upload(t, 'poster.png', await gradientPoster(), fields, { key: account.key });
    expect(await finished(uploaded.data, account.key)).toMatchObject({
      status: 'error',
      error_message:
        "The translation has characters the server's fonts (DejaVu Sans) do not cover: 家. The image would show them as empty boxes.",
    });
    expect(await usage(account.key)).toBe(0);
  }, 60_000);

  it('an image without source_lang into a target no engine serves: 400 at upload, nothing queued', async () => {
    const reply = await upload(t, 'poster.png', await gradientPoster(), { target_lang: 'JA' });
    expect([reply.status, reply.data.message]).toEqual([
      400,
      "Target language JA is not supported by this server's engines.",
    ]);
  });

  it('text that hardly stands out (grey on grey) is drawn back in black, which contrasts', async () => {
    const label = await sharp({
      text: {
        text: '<span foreground="#8a8a8a">The house is big.</span>',
        font: 'DejaVu Sans 30',
        dpi: 96,
        rgba: true,
      },
    })
      .png()
      .toBuffer();
    const poster = await sharp({ create: { width: 700, height: 160, channels: 3, background: '#c4c4c4' } })
      .composite([{ input: label, left: 40, top: 50 }])
      .png()
      .toBuffer();
    const darkest = async (image: Buffer) => {
      const { data, info } = await sharp(image)
        .extract({ left: 30, top: 40, width: 500, height: 70 })
        .raw()
        .toBuffer({
          resolveWithObject: true,
        });
      let least = 255;
      for (let at = 0; at < data.length; at += info.channels) least = Math.min(least, data[at]!);
      return least;
    };
    expect(await darkest(poster)).toBeGreaterThan(120);
    const uploaded = await upload(t, 'grey.png', poster, { target_lang: 'ES', source_lang: 'EN' });
    expect((await finished(uploaded.data, t.server.devKey)).status).toBe('done');
    const result = await download(t, uploaded.data);
    expect(await darkest(result.bytes)).toBeLessThan(40);
    expect(await ocr(result.bytes, 'spa')).toContain('La casa es grande.');
  }, 60_000);
});
