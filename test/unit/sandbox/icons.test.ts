import { describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { PRE_ENCODED_JPEG } from '../../../src/sandbox/iconsJpeg.js';
import { PRE_ENCODED_PNG } from '../../../src/sandbox/iconsPng.js';
import { encodeJpegIcon, encodePngIcon, jpegIcon, pngIcon } from '../../../src/sandbox/icons.js';

describe('pre-encoded JPEG icons', () => {
  it.each(Object.keys(PRE_ENCODED_JPEG).map(Number))('seed %i equals a fresh encoding (regenerate iconsJpeg.ts if the encoder or the pattern changed)', (seed) => {
    expect(Buffer.from(PRE_ENCODED_JPEG[seed]!, 'base64').equals(encodeJpegIcon(seed))).toBe(true);
  });

  it('other seeds and sizes are encoded on the spot, and every icon decodes', () => {
    const other = jpegIcon(8);
    expect(other.equals(encodeJpegIcon(8))).toBe(true);
    expect(jpeg.decode(jpegIcon(33)).width).toBe(16);
    expect(jpeg.decode(jpegIcon(33, 24)).width).toBe(24);
  });
});

describe('pre-encoded PNG icons', () => {
  it.each(Object.keys(PRE_ENCODED_PNG).map(Number))('seed %i equals a fresh encoding (regenerate iconsPng.ts if the encoder or the pattern changed)', (seed) => {
    expect(Buffer.from(PRE_ENCODED_PNG[seed]!, 'base64').equals(encodePngIcon(seed))).toBe(true);
  });

  it('other seeds and sizes are encoded on the spot, and every icon decodes', () => {
    expect(pngIcon(8).equals(encodePngIcon(8))).toBe(true);
    expect(PNG.sync.read(pngIcon(20)).width).toBe(16);
    expect(PNG.sync.read(pngIcon(20, 24)).width).toBe(24);
  });
});
