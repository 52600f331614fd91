import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPackageWithOptions, uncacheAll } from '@electron/asar';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  devDependencyProblems,
  integrityProblems,
  nativeModuleProblems,
  packedPackages,
} from './support/packageChecks.ts';
import { fuseWire, SHIPPED_FUSE_WIRE, writeElectronStandIn } from './support/packedApp.ts';

/**
 * The package checks against archives made here with @electron/asar, good and bad, so each is
 * known to catch what it is for before packedApp.test.ts trusts it with the real app.asar.
 */

const folder = mkdtempSync(path.join(tmpdir(), 'plantdesk-package-checks-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
// @electron/asar caches each archive's header by path; a test may rewrite one.
afterEach(() => uncacheAll());

let count = 0;
async function archive(files: Record<string, string>, unpack?: string): Promise<string> {
  count += 1;
  const source = path.join(folder, `app-${count}`);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(source, file)), { recursive: true });
    writeFileSync(path.join(source, file), text);
  }
  const asarPath = path.join(folder, `app-${count}.asar`);
  await createPackageWithOptions(source, asarPath, unpack === undefined ? {} : { unpack });
  return asarPath;
}

const APP = {
  'package.json': '{"name":"app"}',
  'out/main/index.js': 'console.log("main");',
  'node_modules/fastify/index.js': 'module.exports = {};',
  'node_modules/@napi-rs/keyring-linux-x64-gnu/keyring.node': 'native',
  'node_modules/fastify/node_modules/@scope/inner/index.js': '',
};

describe('packedPackages', () => {
  it('names every node_modules package, scoped and nested ones included', async () => {
    expect(packedPackages(await archive(APP))).toEqual(
      new Set(['fastify', '@napi-rs/keyring-linux-x64-gnu', '@scope/inner']),
    );
  });
});

describe('devDependencyProblems', () => {
  it('passes when no devDependency is packed', async () => {
    expect(devDependencyProblems(await archive(APP), ['vue', '@scope/other'])).toEqual([]);
  });

  it('names each packed devDependency, at any depth', async () => {
    const asarPath = await archive({ ...APP, 'node_modules/vue/index.js': '' });
    expect(devDependencyProblems(asarPath, ['vue', '@scope/inner', 'vite'])).toEqual([
      'devDependency vue is packed in app.asar',
      'devDependency @scope/inner is packed in app.asar',
    ]);
  });
});

describe('nativeModuleProblems', () => {
  it('passes when every .node file is unpacked', async () => {
    expect(nativeModuleProblems(await archive(APP, '*.node'))).toEqual([]);
  });

  it('reports a .node file packed inside the archive', async () => {
    expect(nativeModuleProblems(await archive(APP))).toEqual([
      'node_modules/@napi-rs/keyring-linux-x64-gnu/keyring.node is a native module packed inside app.asar',
    ]);
  });

  it('reports an unpacked .node file missing beside the archive', async () => {
    const asarPath = await archive(APP, '*.node');
    const file = 'node_modules/@napi-rs/keyring-linux-x64-gnu/keyring.node';
    rmSync(path.join(`${asarPath}.unpacked`, file));
    expect(nativeModuleProblems(asarPath)).toEqual([
      `${file} is marked unpacked but missing from app.asar.unpacked`,
    ]);
  });
});

describe('integrityProblems', () => {
  it('passes an archive whose header integrity matches every file, unpacked ones included', async () => {
    expect(integrityProblems(await archive(APP, '*.node'))).toEqual([]);
  });

  it('reports a file changed after packing', async () => {
    const asarPath = await archive(APP);
    const bytes = readFileSync(asarPath);
    const at = bytes.indexOf('console.log("main")');
    bytes.write('C', at);
    writeFileSync(asarPath, bytes);
    expect(integrityProblems(asarPath)).toEqual([
      'out/main/index.js: content does not match the integrity in the asar header',
    ]);
  });

  it('reports a file without integrity in the header', async () => {
    const asarPath = await archive(APP);
    const bytes = readFileSync(asarPath);
    // The header is JSON after 16 bytes of size fields: rename the key, keeping its length.
    const at = bytes.indexOf('"integrity"', 16);
    bytes.write('"integritY"', at);
    writeFileSync(asarPath, bytes);
    expect(integrityProblems(asarPath)).toHaveLength(1);
    expect(integrityProblems(asarPath)[0]).toMatch(/ has no integrity in the asar header$/);
  });
});

describe('the stand-in Electron', () => {
  it('carries a fuse wire that fuseWire reads back', () => {
    const dist = path.join(folder, 'electron-dist');
    writeElectronStandIn(dist);
    expect(fuseWire(readFileSync(path.join(dist, 'electron')))).toBe(SHIPPED_FUSE_WIRE);
  });

  it('says so when a binary has no fuse wire', () => {
    expect(() => fuseWire(Buffer.from('#!/bin/sh\nexit 1\n'))).toThrow(/no fuse sentinel/);
  });
});
