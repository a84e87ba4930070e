/** Small generated intern icons (PNG and JPEG), distinct per seed, so the sandbox has real image bytes to serve. */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { PRE_ENCODED_JPEG } from './iconsJpeg.js';
import { PRE_ENCODED_PNG } from './iconsPng.js';

function pixels(seed: number, size: number): Buffer {
  const data = Buffer.alloc(size * size * 4);
  const hue = (seed * 47) % 360;
  const [r1, g1, b1] = hsl(hue, 0.65, 0.55);
  const [r2, g2, b2] = hsl((hue + 180) % 360, 0.5, 0.9);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // A symmetric 5x5 identicon-like pattern, mirrored left to right.
      const cx = Math.min(Math.floor((x * 5) / size), 4 - Math.floor((x * 5) / size));
      const cy = Math.floor((y * 5) / size);
      const on = ((seed >> ((cx * 5 + cy) % 16)) & 1) === 1 || (cx === 2 && cy === 2);
      const i = (y * size + x) * 4;
      data[i] = on ? r1 : r2;
      data[i + 1] = on ? g1 : g2;
      data[i + 2] = on ? b1 : b2;
      data[i + 3] = 255;
    }
  }
  return data;
}

/** A fixture's icon as it was encoded once (iconsPng.ts, iconsJpeg.ts), else encoded now. */
function preEncodedOr(table: Readonly<Record<number, string>>, seed: number, size: number, encode: (seed: number, size: number) => Buffer): Buffer {
  const ready = size === 16 ? table[seed] : undefined;
  return ready !== undefined ? Buffer.from(ready, 'base64') : encode(seed, size);
}

export function pngIcon(seed: number, size = 16): Buffer {
  return preEncodedOr(PRE_ENCODED_PNG, seed, size, encodePngIcon);
}

/** Always encodes (the fixtures' seeds come pre-encoded; see iconsPng.ts). */
export function encodePngIcon(seed: number, size = 16): Buffer {
  const png = new PNG({ width: size, height: size });
  pixels(seed, size).copy(png.data);
  return PNG.sync.write(png);
}

export function jpegIcon(seed: number, size = 16): Buffer {
  return preEncodedOr(PRE_ENCODED_JPEG, seed, size, encodeJpegIcon);
}

/** Always encodes (the fixtures' seeds come pre-encoded; see iconsJpeg.ts). */
export function encodeJpegIcon(seed: number, size = 16): Buffer {
  return jpeg.encode({ data: pixels(seed, size), width: size, height: size }, 90).data;
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}
