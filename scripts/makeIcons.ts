import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

/**
 * Every packaging icon, rendered from the one drawing in build/icon.svg (npm run icons):
 *   build/icons/<n>x<n>.png  the Linux set (electron-builder's linux.icon points at the folder)
 *   build/icon.png           1024 px, the fallback every platform understands
 *   build/icon.ico           Windows: PNG-compressed entries 16–256 px
 *   build/icon.icns          macOS: PNG chunks 16–1024 px
 * The outputs are committed; test/unit/desktop/icons.test.ts renders them again and fails if they
 * no longer match the SVG. The ICO and ICNS containers are a few fixed headers around PNG data, so
 * they are written here rather than with another dependency.
 */

export const BUILD_DIR = fileURLToPath(new URL('../build/', import.meta.url));
export const ICON_SVG = path.join(BUILD_DIR, 'icon.svg');

export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024] as const;
/** 256 is the largest size an ICO directory entry can describe. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const;
/**
 * ICNS chunk types that may hold PNG data (macOS 10.7+), with their pixel sizes: the Retina types
 * (ic11–ic14, ic10) hold twice the pixels of the point size they stand for.
 */
export const ICNS_CHUNKS = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32],
  ['ic12', 64],
  ['ic07', 128],
  ['ic13', 256],
  ['ic08', 256],
  ['ic14', 512],
  ['ic09', 512],
  ['ic10', 1024],
] as const;

export function renderPng(svg: Buffer | string, size: number): Buffer {
  const rendered = new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render();
  if (rendered.width !== size || rendered.height !== size) {
    throw new Error(`icon.svg must be square: rendered ${rendered.width}x${rendered.height}`);
  }
  return rendered.asPng();
}

export interface SizedPng {
  size: number;
  png: Buffer;
}

/** ICONDIR (6 bytes), one ICONDIRENTRY (16 bytes) per image, then the PNG files themselves. */
export function buildIco(images: readonly SizedPng[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    if (size < 1 || size > 256) throw new RangeError(`ICO entries are 1–256 px, not ${size}`);
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size === 256 ? 0 : size, 0); // width; 0 means 256
    entry.writeUInt8(size === 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // palette colours: none
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}

/** 'icns' + total length, then per chunk: its 4-character type + length (header included) + PNG. */
export function buildIcns(chunks: readonly { type: string; png: Buffer }[]): Buffer {
  const parts = chunks.map(({ type, png }) => {
    if (!/^[\x20-\x7e]{4}$/.test(type)) throw new Error(`bad ICNS chunk type ${type}`);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

/** Every icon file, keyed by its path relative to build/. */
export function iconFiles(svg: Buffer | string): Map<string, Buffer> {
  const sizes = new Set<number>([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_CHUNKS.map(([, s]) => s)]);
  const png = new Map([...sizes].map((size) => [size, renderPng(svg, size)]));
  const at = (size: number) => png.get(size)!;

  const files = new Map<string, Buffer>();
  for (const size of LINUX_SIZES) files.set(`icons/${size}x${size}.png`, at(size));
  files.set('icon.png', at(1024));
  files.set('icon.ico', buildIco(ICO_SIZES.map((size) => ({ size, png: at(size) }))));
  files.set('icon.icns', buildIcns(ICNS_CHUNKS.map(([type, size]) => ({ type, png: at(size) }))));
  return files;
}

function main(): void {
  const files = iconFiles(readFileSync(ICON_SVG));
  mkdirSync(path.join(BUILD_DIR, 'icons'), { recursive: true });
  for (const [name, bytes] of files) {
    writeFileSync(path.join(BUILD_DIR, name), bytes);
    console.log(`build/${name} (${bytes.length} bytes)`);
  }
}

if (import.meta.main) main();
