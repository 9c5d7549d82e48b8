/**
 * Drawing translations over an image: each block's region is covered with the background around it carried
 * across (`image-cover.ts`: a gradient or shading continues) and the translation is drawn in its text
 * colour (the median of the pixels inside its words that differ most from the background, or black or
 * white, whichever contrasts, when they do not stand out), wrapped and fitted to the region by sharp's
 * text renderer (Pango, DejaVu Sans with the system's fallback fonts for other scripts).
 */
import { existsSync, readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import sharp, { type OverlayOptions } from 'sharp';
import { DocumentFormatError } from './format.js';
import { coverPixels } from './image-cover.js';
import { type Box, type OcrBlock, union } from './ocr.js';

export type ImageKind = 'png' | 'jpeg';

/** An image decoded for OCR and drawing. */
export interface DecodedImage {
  /** The upright image as raw RGBA pixels. */
  readonly pixels: Buffer;
  readonly width: number;
  readonly height: number;
  readonly kind: ImageKind;
}

type Rgb = readonly [number, number, number];

const SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
let sansCharacters: ReadonlySet<number> | undefined;

/**
 * Characters of the text DejaVu Sans lacks (Pango would draw them as empty boxes: the other fonts here,
 * Liberation, cover less). Nothing is reported when the font file is missing.
 */
function uncovered(text: string): string[] {
  if (!sansCharacters) {
    if (!existsSync(SANS)) return [];
    sansCharacters = new Set(fontkit.create(readFileSync(SANS)).characterSet);
  }
  const known = sansCharacters;
  return [...text].filter((char) => !/\s/u.test(char) && !known.has(char.codePointAt(0)!));
}

/** Pixels added around a block's box when it is covered (OCR boxes sit tight on the ink). */
const PAD = 3;

export async function drawTranslations(
  image: DecodedImage,
  blocks: readonly OcrBlock[],
  outputs: readonly string[],
  /** Clockwise degrees the drawn image is turned by before it is encoded (an image read upright). */
  turnBack = 0,
): Promise<Uint8Array> {
  const overlays: OverlayOptions[] = [];
  const missing = new Set<string>();
  for (const [index, block] of blocks.entries()) {
    const text = outputs[index]?.trim();
    if (text === undefined || text === '' || text === block.text) continue;
    for (const char of uncovered(text)) missing.add(char);
    const box = clip(
      {
        left: block.left - PAD,
        top: block.top - PAD,
        width: block.width + 2 * PAD,
        height: block.height + 2 * PAD,
      },
      image,
    );
    if (box.width < 2 || box.height < 2) continue;
    const ink = inkColour(image, block, ring(image, box));
    overlays.push({
      input: coverPixels(image, box),
      raw: { width: box.width, height: box.height, channels: 4 },
      left: box.left,
      top: box.top,
    });
    const drawn = await drawText(text, ink, block);
    if (drawn) overlays.push(drawn);
  }
  if (missing.size > 0)
    throw new DocumentFormatError(
      `The translation has characters the server's fonts (DejaVu Sans) do not cover: ${[...missing].slice(0, 10).join(' ')}. The image would show them as empty boxes.`,
    );
  const raw = { raw: { width: image.width, height: image.height, channels: 4 as const } };
  let canvas = sharp(image.pixels, raw).composite(overlays);
  if (turnBack !== 0) {
    // Composited first, then turned (sharp would turn before compositing in one pipeline).
    const drawn = await canvas.raw().toBuffer({ resolveWithObject: true });
    canvas = sharp(drawn.data, {
      raw: { width: drawn.info.width, height: drawn.info.height, channels: 4 },
    }).rotate(turnBack);
  }
  const out =
    image.kind === 'png' ? canvas.png() : canvas.flatten({ background: '#ffffff' }).jpeg({ quality: 92 });
  return new Uint8Array(await out.toBuffer());
}

/** The text rendered to fit the block (wrapped at its width, as large as its height allows), centred on it. */
async function drawText(text: string, ink: Rgb, block: OcrBlock): Promise<OverlayOptions | undefined> {
  const lineHeight = Math.max(...block.lines.map((line) => line.height));
  // Keep at least one line of roughly the original size: a short translation of a one-line block is not blown up.
  const height = Math.max(Math.min(block.height, Math.round(lineHeight * 1.2 * block.lines.length)), 4);
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${hex(ink)}">${escapeMarkup(text)}</span>`,
      font: 'DejaVu Sans',
      width: Math.max(block.width, 4),
      height,
      rgba: true,
      wrap: 'word-char',
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  if (info.width === 0 || info.height === 0) return undefined;
  return {
    input: data,
    left: block.left,
    top: block.top + Math.max(Math.floor((block.height - info.height) / 2), 0),
  };
}

function clip(box: Box, image: DecodedImage): Box {
  const left = Math.max(box.left, 0);
  const top = Math.max(box.top, 0);
  const right = Math.min(box.left + box.width, image.width);
  const bottom = Math.min(box.top + box.height, image.height);
  return { left, top, width: Math.max(right - left, 0), height: Math.max(bottom - top, 0) };
}

function pixel(image: DecodedImage, x: number, y: number): Rgb {
  const at = (y * image.width + x) * 4;
  return [image.pixels[at]!, image.pixels[at + 1]!, image.pixels[at + 2]!];
}

/** The pixels on the edge of the box (just outside the ink), every other one. */
function ring(image: DecodedImage, box: Box): Rgb[] {
  const right = box.left + box.width - 1;
  const bottom = box.top + box.height - 1;
  const pixels: Rgb[] = [];
  for (let x = box.left; x <= right; x += 2) pixels.push(pixel(image, x, box.top), pixel(image, x, bottom));
  for (let y = box.top; y <= bottom; y += 2) pixels.push(pixel(image, box.left, y), pixel(image, right, y));
  return pixels;
}

/** The text colour: the median of the fifth of the word pixels farthest from the background. */
function inkColour(image: DecodedImage, block: OcrBlock, around: readonly Rgb[]): Rgb {
  const background = median(around);
  const inside = union(block.lines);
  const pixels: Rgb[] = [];
  const step = Math.max(1, Math.floor(Math.sqrt((inside.width * inside.height) / 20_000)));
  for (let y = inside.top; y < inside.top + inside.height && y < image.height; y += step)
    for (let x = inside.left; x < inside.left + inside.width && x < image.width; x += step)
      pixels.push(pixel(image, x, y));
  const far = pixels
    .map((colour) => ({ colour, distance: distance(colour, background) }))
    .sort((a, b) => b.distance - a.distance)
    .slice(0, Math.max(1, Math.ceil(pixels.length / 5)))
    .map((entry) => entry.colour);
  const ink = median(far);
  // Ink that would not stand out somewhere on the cover (its lightest or darkest tenth of the surroundings):
  // black or white, whichever contrasts more with both.
  const shades = around.map(relativeLuminance).sort((a, b) => a - b);
  const light = shades[Math.floor(shades.length * 0.9)] ?? relativeLuminance(background);
  const dark = shades[Math.floor(shades.length * 0.1)] ?? relativeLuminance(background);
  const worst = (colour: Rgb) => Math.min(contrast(colour, light), contrast(colour, dark));
  if (worst(ink) >= MIN_CONTRAST) return ink;
  return worst([0, 0, 0]) >= worst([255, 255, 255]) ? [0, 0, 0] : [255, 255, 255];
}

/** Contrast ratio under which the text colour is replaced by black or white (WCAG's ratio, 1..21). */
const MIN_CONTRAST = 2;

/** WCAG relative luminance of an sRGB colour (0..1). */
function relativeLuminance(colour: Rgb): number {
  const linear = colour.map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * linear[0]! + 0.7152 * linear[1]! + 0.0722 * linear[2]!;
}

const contrast = (colour: Rgb, luminance: number) => {
  const own = relativeLuminance(colour);
  return (Math.max(own, luminance) + 0.05) / (Math.min(own, luminance) + 0.05);
};

function median(pixels: readonly Rgb[]): Rgb {
  if (pixels.length === 0) return [255, 255, 255];
  const channel = (c: 0 | 1 | 2) => {
    const values = pixels.map((p) => p[c]).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)]!;
  };
  return [channel(0), channel(1), channel(2)];
}

const distance = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const hex = (c: Rgb) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
