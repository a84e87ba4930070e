/** PNG and JPEG icons to RGBA pixels. A module of its own: IconView imports it when the first icon arrives. */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export function decodeIcon(bytes: Uint8Array): { width: number; height: number; data: Uint8Array } {
  const buf = Buffer.from(bytes);
  if (buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    const png = PNG.sync.read(buf);
    return { width: png.width, height: png.height, data: png.data };
  }
  const img = jpeg.decode(buf, { useTArray: true, maxResolutionInMP: 4, maxMemoryUsageInMB: 64 });
  return { width: img.width, height: img.height, data: img.data };
}
