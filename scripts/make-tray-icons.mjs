// Draws the tray icons into resources/tray (run once; the PNGs are committed):
// a ring in the state's colour with a filled centre when connected or in a call, at 16 px and
// 32 px (@2x). No image library needed: a PNG is a zlib stream of RGBA rows.
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const STATES = {
  'not-connected': { rgb: [128, 128, 128], filled: false },
  connected: { rgb: [22, 163, 74], filled: true },
  'in-call': { rgb: [220, 38, 38], filled: true },
};

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size, { rgb, filled }) {
  const rows = [];
  const centre = (size - 1) / 2;
  const outer = size / 2 - 0.5;
  const ring = size / 8;
  for (let y = 0; y < size; y++) {
    const row = [0];
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - centre, y - centre);
      const inRing = d <= outer && d >= outer - ring;
      const inCore = filled && d <= outer - ring * 2;
      const alpha = inRing || inCore ? Math.round(255 * Math.min(1, outer + 0.5 - d)) : 0;
      row.push(...rgb, Math.max(0, alpha));
    }
    rows.push(Buffer.from(row));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const dir = new URL('../resources/tray/', import.meta.url);
mkdirSync(dir, { recursive: true });
for (const [name, style] of Object.entries(STATES)) {
  writeFileSync(new URL(`${name}.png`, dir), png(16, style));
  writeFileSync(new URL(`${name}@2x.png`, dir), png(32, style));
}
