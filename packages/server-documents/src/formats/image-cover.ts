/**
 * The cover laid over a text region of an image before the translation is drawn: not one flat colour but
 * the background around the region carried across it. Each edge of the box (just outside the ink) is read
 * and smoothed with a running median (so a stray letter next to the box does not streak it), and every
 * pixel inside is the blend of the edges around it: left and right by its column, top and bottom by its
 * row. A gradient or a photograph's slow shading continues under the translated text.
 */
import type { Box } from './ocr.js';

export type Rgb = readonly [number, number, number];

export interface Pixels {
  readonly pixels: Buffer;
  readonly width: number;
  readonly height: number;
}

const WINDOW = 4;

function at(image: Pixels, x: number, y: number): Rgb {
  const cx = Math.min(Math.max(x, 0), image.width - 1);
  const cy = Math.min(Math.max(y, 0), image.height - 1);
  const offset = (cy * image.width + cx) * 4;
  return [image.pixels[offset]!, image.pixels[offset + 1]!, image.pixels[offset + 2]!];
}

function medianOf(colours: readonly Rgb[]): Rgb {
  const channel = (c: 0 | 1 | 2) => colours.map((p) => p[c]).sort((a, b) => a - b)[colours.length >> 1]!;
  return [channel(0), channel(1), channel(2)];
}

/** A line of pixels smoothed by a running median over ±`WINDOW` pixels. */
function smooth(line: readonly Rgb[]): Rgb[] {
  return line.map((_, i) => medianOf(line.slice(Math.max(0, i - WINDOW), i + WINDOW + 1)));
}

/** The RGBA pixels of the cover of `box` (inside the image), row by row. */
export function coverPixels(image: Pixels, box: Box): Buffer {
  const { left, top, width, height } = box;
  const column = (x: number) => smooth(Array.from({ length: height }, (_, y) => at(image, x, top + y)));
  const row = (y: number) => smooth(Array.from({ length: width }, (_, x) => at(image, left + x, y)));
  const [west, east] = [column(left - 1), column(left + width)];
  const [north, south] = [row(top - 1), row(top + height)];
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const v = height === 1 ? 0.5 : y / (height - 1);
    for (let x = 0; x < width; x++) {
      const u = width === 1 ? 0.5 : x / (width - 1);
      const offset = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        const across = west[y]![c]! * (1 - u) + east[y]![c]! * u;
        const down = north[x]![c]! * (1 - v) + south[x]![c]! * v;
        out[offset + c] = Math.round((across + down) / 2);
      }
      out[offset + 3] = 255;
    }
  }
  return out;
}
