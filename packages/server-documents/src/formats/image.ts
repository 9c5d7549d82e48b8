/**
 * Images (beta: `jpeg`, `jpg`, `png`): the words are read by Tesseract OCR with their boxes, each block
 * (a paragraph of lines) is one plain text, and the translated document is the same image, the same size
 * and format, with each block's region covered in its background colour and the translation drawn over it,
 * fitted to the region. The image is decoded by sharp (libvips) with a pixel limit, turned upright by its
 * EXIF orientation, and must be what its extension says. Text that runs vertically or reads poorly is
 * read again turned (a quarter either way, or a half): the best reading wins, and the image is drawn
 * upright and turned back. Blocks read with little confidence are left as they are; an image with no
 * block read with confidence ends its job in error (nothing billed). The upload only checks the header;
 * OCR runs in the job (the queue bounds how many run at once).
 */
import sharp, { type Metadata } from 'sharp';
import { type DocumentFormat, DocumentFormatError, type Extraction } from './format.js';
import { type DecodedImage, drawTranslations, type ImageKind } from './image-draw.js';
import { type OcrReading, recognize, turnsToTry } from './ocr.js';

/** Largest image accepted, in pixels (width × height): about 7,000 × 7,000. */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** Largest upload accepted, in bytes. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * Mean word confidence (0..100) a block needs to be translated: crisp text reads at 90 or more, text
 * blurred past reading at 40–60 (checked on DejaVu Sans 30 px blurred: σ 4 → 95, σ 5.5 → 62, σ 6 → 49).
 */
const MIN_BLOCK_CONFIDENCE = 65;

/** Estimated OCR and drawing time per megapixel, in ms (for `seconds_remaining` before the job starts). */
const ESTIMATED_MS_PER_MEGAPIXEL = 1500;

/**
 * The upload's check, from the image header only (no decoding, no OCR): an image of the kind its
 * extension names, within the pixel limit.
 */
export async function checkImage(
  bytes: Uint8Array,
  kind: ImageKind,
  name: string,
): Promise<{ estimateMs: number }> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new DocumentFormatError(`The ${name} document is not a readable image.`);
  }
  if (metadata.format !== kind)
    throw new DocumentFormatError(`The ${name} document is not a ${kind.toUpperCase()} image.`);
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels > MAX_IMAGE_PIXELS)
    throw new DocumentFormatError(
      `Image too large: ${name} documents may be at most ${MAX_IMAGE_PIXELS} pixels (width × height).`,
      413,
    );
  if (pixels === 0) throw new DocumentFormatError(`The ${name} document is not a readable image.`);
  return { estimateMs: Math.ceil((pixels / 1_000_000) * ESTIMATED_MS_PER_MEGAPIXEL) + 500 };
}

/** Decodes the upload: an image of the kind its extension names, within the pixel limit. */
export async function decodeImage(bytes: Uint8Array, kind: ImageKind, name: string): Promise<DecodedImage> {
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { limitInputPixels: false }).metadata()).format;
  } catch {
    throw new DocumentFormatError(`The ${name} document is not a readable image.`);
  }
  if (format !== kind)
    throw new DocumentFormatError(`The ${name} document is not a ${kind.toUpperCase()} image.`);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { pixels: data, width: info.width, height: info.height, kind };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message))
      throw new DocumentFormatError(
        `Image too large: ${name} documents may be at most ${MAX_IMAGE_PIXELS} pixels (width × height).`,
        413,
      );
    throw new DocumentFormatError(`The ${name} document is not a readable image.`);
  }
}

const pngOf = (image: DecodedImage) =>
  sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 4 } })
    .png({ compressionLevel: 1 })
    .toBuffer();

/** The image turned clockwise by a quarter turn or a half. */
async function turnImage(image: DecodedImage, degrees: number): Promise<DecodedImage> {
  const { data, info } = await sharp(image.pixels, {
    raw: { width: image.width, height: image.height, channels: 4 },
  })
    .rotate(degrees)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height, kind: image.kind };
}

function createImageFormat(name: string, kind: ImageKind): DocumentFormat {
  return {
    name,
    maxBytes: MAX_IMAGE_BYTES,
    contentType: kind === 'png' ? 'image/png' : 'image/jpeg',
    minimumBilled: 0,
    readInJob: { check: (bytes) => checkImage(bytes, kind, name) },
    async extract(bytes, options): Promise<Extraction> {
      const image = await decodeImage(bytes, kind, name);
      let upright = image;
      let turn = 0;
      let reading = await recognize(await pngOf(image), options.sourceLang);
      // A page turned a quarter or upside down: the best turned reading, when it looks upright (or reads
      // clearly better), is used: drawn upright, then turned back.
      let best: { turn: number; image: DecodedImage; reading: OcrReading } | undefined;
      for (const candidate of turnsToTry(reading)) {
        const turned = await turnImage(image, candidate);
        const again = await recognize(await pngOf(turned), options.sourceLang);
        if (!best || again.confidence > best.reading.confidence)
          best = { turn: candidate, image: turned, reading: again };
      }
      if (
        best &&
        (turnsToTry(best.reading).length === 0 || best.reading.confidence > reading.confidence + 10)
      )
        [upright, turn, reading] = [best.image, best.turn, best.reading];
      // Blocks read with little confidence are guesses (a blurred or handwritten line reads as "The Mee ty
      // 4 ee"): they stay in the image as they are. An image with no block left has nothing to translate.
      const blocks = reading.blocks.filter(
        (block) => /\p{L}/u.test(block.text) && block.confidence >= MIN_BLOCK_CONFIDENCE,
      );
      if (blocks.length === 0)
        throw new DocumentFormatError(
          `No text could be read in the ${name} image: OCR (Tesseract) found no words it could read with confidence, so there is nothing to translate. Nothing was billed.`,
        );
      return {
        texts: blocks.map((block) => ({ text: block.text, mode: 'plain' as const })),
        rebuild: (outputs) => drawTranslations(upright, blocks, outputs, (360 - turn) % 360),
      };
    },
  };
}

export const pngFormat = createImageFormat('PNG', 'png');
export const jpegFormat = createImageFormat('JPEG', 'jpeg');
