import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BUILD_DIR,
  ICNS_CHUNKS,
  ICO_SIZES,
  ICON_SVG,
  LINUX_SIZES,
  iconFiles,
} from '../../../scripts/makeIcons.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const committed = (name: string) => readFileSync(path.join(BUILD_DIR, name));

/** Width, height and colour type from a PNG's IHDR chunk, after checking the signature. */
function pngInfo(png: Buffer): { width: number; height: number; colourType: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), colourType: png[25]! };
}

function readIco(file: Buffer): { width: number; height: number; png: Buffer }[] {
  expect(file.readUInt16LE(0)).toBe(0);
  expect(file.readUInt16LE(2)).toBe(1);
  const count = file.readUInt16LE(4);
  return Array.from({ length: count }, (_, index) => {
    const entry = 6 + 16 * index;
    const length = file.readUInt32LE(entry + 8);
    const offset = file.readUInt32LE(entry + 12);
    expect(offset + length).toBeLessThanOrEqual(file.length);
    expect(file.readUInt16LE(entry + 4)).toBe(1); // planes
    expect(file.readUInt16LE(entry + 6)).toBe(32); // bits per pixel
    return {
      width: file[entry] || 256,
      height: file[entry + 1] || 256,
      png: file.subarray(offset, offset + length),
    };
  });
}

function readIcns(file: Buffer): { type: string; png: Buffer }[] {
  expect(file.toString('latin1', 0, 4)).toBe('icns');
  expect(file.readUInt32BE(4)).toBe(file.length);
  const chunks: { type: string; png: Buffer }[] = [];
  for (let offset = 8; offset < file.length;) {
    const length = file.readUInt32BE(offset + 4);
    expect(length).toBeGreaterThan(8);
    chunks.push({
      type: file.toString('latin1', offset, offset + 4),
      png: file.subarray(offset + 8, offset + length),
    });
    offset += length;
  }
  return chunks;
}

let fresh: Map<string, Buffer>;
beforeAll(() => {
  fresh = iconFiles(readFileSync(ICON_SVG));
});

describe('icon set in build/', () => {
  it('has the Linux PNG set, each the size its name says, RGBA', () => {
    const expected = LINUX_SIZES.map((size) => `${size}x${size}.png`);
    expect(readdirSync(path.join(BUILD_DIR, 'icons')).sort()).toEqual([...expected].sort());
    for (const size of LINUX_SIZES) {
      const info = pngInfo(committed(`icons/${size}x${size}.png`));
      expect(info).toEqual({ width: size, height: size, colourType: 6 });
    }
    expect(pngInfo(committed('icon.png'))).toMatchObject({ width: 1024, height: 1024 });
  });

  it('has an ICO whose directory matches its PNG entries, 16 to 256 px', () => {
    const entries = readIco(committed('icon.ico'));
    expect(entries.map((entry) => entry.width)).toEqual([...ICO_SIZES]);
    for (const entry of entries) {
      const info = pngInfo(entry.png);
      expect([info.width, info.height]).toEqual([entry.width, entry.height]);
    }
  });

  it('has an ICNS whose chunks are PNGs of the sizes their types stand for', () => {
    const chunks = readIcns(committed('icon.icns'));
    expect(chunks.map((chunk) => chunk.type)).toEqual(ICNS_CHUNKS.map(([type]) => type));
    for (const [index, [, size]] of ICNS_CHUNKS.entries()) {
      expect(pngInfo(chunks[index]!.png)).toMatchObject({ width: size, height: size });
    }
    // The Retina and largest types macOS needs for Finder and the Dock.
    expect(chunks.map((chunk) => chunk.type)).toEqual(
      expect.arrayContaining(['ic07', 'ic08', 'ic09', 'ic10']),
    );
  });

  it('is exactly what build/icon.svg renders to now (run `npm run icons` after editing it)', () => {
    expect([...fresh.keys()].sort()).toEqual(
      [
        ...LINUX_SIZES.map((size) => `icons/${size}x${size}.png`),
        'icon.png',
        'icon.ico',
        'icon.icns',
      ].sort(),
    );
    const stale = [...fresh].filter(([name, bytes]) => !committed(name).equals(bytes));
    expect(stale.map(([name]) => name)).toEqual([]);
  });
});
