import { crc32, deflateSync } from 'node:zlib';

/**
 * A real PNG (8-bit RGB) drawn pixel by pixel, for tests that need an image a browser shows:
 * a tenant logo in the public pages' screenshots.
 */
export function drawPng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0); ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** A simple horizontal logo: a dark blue mark and three bars on white. */
export const logoPng = () => drawPng(160, 48, (x, y) => {
  if (x < 48) return (x - 24) ** 2 + (y - 24) ** 2 < 400 ? [11, 78, 162] : [255, 255, 255];
  if (x > 60 && x < 150 && ((y > 10 && y < 16) || (y > 21 && y < 27) || (y > 32 && y < 38 && x < 120))) return [29, 39, 59];
  return [255, 255, 255];
});
