import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extractAll } from '@electron/asar';
import { build, Platform } from 'electron-builder';
import { requireFreshBuild, ROOT } from './builtOut.ts';

/**
 * The app as electron-builder packs it, without an Electron binary (issue 16, "Package
 * inspection"): `electron-builder --dir` for Linux with `electronDist` pointing at a stand-in
 * folder, then app.asar extracted. The package tests inspect it, and the stand-in Electron
 * harness can load the extracted files instead of out/.
 */

export interface PackedApp {
  /** release/linux-unpacked: the executable (the stand-in, fuses flipped) and resources/. */
  appOutDir: string;
  asarPath: string;
  /** app.asar extracted, its unpacked files (native modules) included: out/, node_modules/… */
  extractedDir: string;
  /** How long electron-builder took. */
  packSeconds: number;
  /** Removes every folder it made. */
  remove(): void;
}

/** @electron/fuses finds the fuse wire after this sentinel in the Electron binary. */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/**
 * Electron 45's fuses as shipped, in @electron/fuses' FuseV1Options order ('1' on, '0' off):
 * RunAsNode, EnableCookieEncryption, EnableNodeOptionsEnvironmentVariable,
 * EnableNodeCliInspectArguments, EnableEmbeddedAsarIntegrityValidation, OnlyLoadAppFromAsar,
 * LoadBrowserProcessSpecificV8Snapshot, GrantFileProtocolExtraPrivileges.
 */
export const SHIPPED_FUSE_WIRE = '10110001';

/**
 * What electron-builder needs of an unpacked Electron for `--linux --dir`: the `electron`
 * executable, which it renames to the app's and whose fuse wire it flips. The stand-in is a
 * script that says it is one, with a fuse wire (version 1) in a trailing comment.
 */
export function writeElectronStandIn(folder: string): void {
  mkdirSync(folder, { recursive: true });
  const wire = Buffer.concat([
    Buffer.from(`# ${FUSE_SENTINEL}`),
    Buffer.from([1, SHIPPED_FUSE_WIRE.length]),
    Buffer.from(`${SHIPPED_FUSE_WIRE}\n`),
  ]);
  const script = '#!/bin/sh\necho "stand-in Electron for package tests: no binary" >&2\nexit 1\n';
  writeFileSync(path.join(folder, 'electron'), Buffer.concat([Buffer.from(script), wire]));
  chmodSync(path.join(folder, 'electron'), 0o755);
}

/** The fuse wire of a (stand-in) binary, as '1'/'0' characters. */
export function fuseWire(binary: Buffer): string {
  const at = binary.indexOf(FUSE_SENTINEL);
  if (at === -1) throw new Error('no fuse sentinel in the binary');
  const length = binary[at + FUSE_SENTINEL.length + 1]!;
  const start = at + FUSE_SENTINEL.length + 2;
  return binary.subarray(start, start + length).toString('latin1');
}

/**
 * The folder electron-builder packs from. A helper's worktree links node_modules to another
 * checkout's, and `npm list` (how electron-builder finds the production dependencies) then
 * reports every package as an extraneous link and the app would ship without its dependencies'
 * dependencies; such a checkout is staged in a temporary folder with a hard-linked copy.
 */
function projectFolder(work: string): string {
  if (!lstatSync(path.join(ROOT, 'node_modules')).isSymbolicLink()) return ROOT;
  const project = path.join(work, 'project');
  for (const entry of ['package.json', 'package-lock.json', 'electron-builder.yml', 'build', 'out'])
    cpSync(path.join(ROOT, entry), path.join(project, entry), { recursive: true });
  execFileSync('cp', [
    '-al',
    realpathSync(path.join(ROOT, 'node_modules')),
    path.join(project, 'node_modules'),
  ]);
  return project;
}

/** Packs out/ (refused when missing or stale) for Linux into a temporary folder, extracted. */
export async function packApp(): Promise<PackedApp> {
  requireFreshBuild();
  const work = mkdtempSync(path.join(tmpdir(), 'plantdesk-packed-'));
  const remove = () => rmSync(work, { recursive: true, force: true });
  try {
    const electronDist = path.join(work, 'electron-dist');
    writeElectronStandIn(electronDist);
    const started = performance.now();
    await build({
      projectDir: projectFolder(work),
      targets: Platform.LINUX.createTarget('dir'),
      publish: 'never',
      // Merged over electron-builder.yml, which stays what is tested.
      config: {
        electronDist,
        directories: { output: path.join(work, 'release') },
        // The only native module, @napi-rs/keyring, ships prebuilt N-API binaries: a rebuild
        // would only download Electron's headers, which these machines cannot.
        npmRebuild: false,
      },
    });
    const packSeconds = (performance.now() - started) / 1000;
    const appOutDir = path.join(work, 'release', 'linux-unpacked');
    const asarPath = path.join(appOutDir, 'resources', 'app.asar');
    const extractedDir = path.join(work, 'extracted');
    extractAll(asarPath, extractedDir);
    return { appOutDir, asarPath, extractedDir, packSeconds, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
