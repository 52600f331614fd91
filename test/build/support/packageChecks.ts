import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { extractFile, getRawHeader } from '@electron/asar';

/**
 * Checks of a packed app.asar (issue 16, "Package inspection"), each returning its problems as
 * sentences naming the file: an empty list means it passes.
 */

interface Entry {
  size?: number;
  unpacked?: boolean;
  link?: string;
  files?: Record<string, Entry>;
  integrity?: { algorithm: string; hash: string; blockSize: number; blocks: string[] };
}

/** Every file of the archive's header (directories walked, links left out), by its path. */
export function asarFiles(asarPath: string): Map<string, Entry> {
  const files = new Map<string, Entry>();
  const visit = (entry: Entry, at: string) => {
    if (entry.files) {
      for (const [name, child] of Object.entries(entry.files))
        visit(child, at === '' ? name : `${at}/${name}`);
    } else if (entry.link === undefined) files.set(at, entry);
  };
  visit(getRawHeader(asarPath).header as Entry, '');
  return files;
}

/**
 * A native module cannot be loaded from inside an archive: every `.node` file must be marked
 * unpacked and be in app.asar.unpacked.
 */
export function nativeModuleProblems(asarPath: string): string[] {
  return [...asarFiles(asarPath)]
    .filter(([file]) => file.endsWith('.node'))
    .flatMap(([file, entry]) => {
      if (!entry.unpacked) return [`${file} is a native module packed inside app.asar`];
      if (!existsSync(path.join(`${asarPath}.unpacked`, file)))
        return [`${file} is marked unpacked but missing from app.asar.unpacked`];
      return [];
    });
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Every file's integrity in the header (what Electron checks each read against when the
 * embedded asar integrity fuse is on): present, SHA256, and the hash and blocks of its content.
 */
export function integrityProblems(asarPath: string): string[] {
  return [...asarFiles(asarPath)].flatMap(([file, entry]) => {
    const integrity = entry.integrity;
    if (integrity === undefined) return [`${file} has no integrity in the asar header`];
    if (integrity.algorithm !== 'SHA256')
      return [`${file}: integrity algorithm ${integrity.algorithm}, not SHA256`];
    const content = entry.unpacked
      ? readFileSync(path.join(`${asarPath}.unpacked`, file))
      : extractFile(asarPath, file);
    const blocks: string[] = [];
    for (let start = 0; start < content.length || start === 0; start += integrity.blockSize)
      blocks.push(sha256(content.subarray(start, start + integrity.blockSize)));
    if (sha256(content) !== integrity.hash || blocks.join() !== integrity.blocks.join())
      return [`${file}: content does not match the integrity in the asar header`];
    return [];
  });
}

/** The packages in the archive: each node_modules/<name> folder, at any depth. */
export function packedPackages(asarPath: string): Set<string> {
  const packages = new Set<string>();
  for (const file of asarFiles(asarPath).keys()) {
    const parts = file.split('/');
    parts.forEach((part, index) => {
      if (part !== 'node_modules' || index + 2 >= parts.length) return;
      const name = parts[index + 1]!;
      packages.add(name.startsWith('@') ? `${name}/${parts[index + 2]}` : name);
    });
  }
  return packages;
}

/** devDependencies are bundled into out/ or used only to build and test: none may ship. */
export function devDependencyProblems(
  asarPath: string,
  devDependencies: readonly string[],
): string[] {
  const packed = packedPackages(asarPath);
  return devDependencies
    .filter((name) => packed.has(name))
    .map((name) => `devDependency ${name} is packed in app.asar`);
}
