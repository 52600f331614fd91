import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Configuration } from 'app-builder-lib';
import type FpmTargetModule from 'app-builder-lib/out/targets/FpmTarget.js';
import type { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import type { DebugLogger } from 'builder-util';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * electron-builder.yml, checked the way electron-builder itself loads and validates it (its own
 * loader and its scheme.json through its own ajv setup), plus what issue 4 requires of it. Nothing
 * is built: packaging downloads Electron, which tests must not need.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// electron-builder's internals are CommonJS; require them as electron-builder does.
const require = createRequire(import.meta.url);
const builderConfig = require('app-builder-lib/out/util/config/config.js') as {
  getConfig: typeof getConfig;
  validateConfiguration: typeof validateConfiguration;
};
const { DebugLogger: Logger } = require('builder-util') as { DebugLogger: typeof DebugLogger };
const plist = require(
  require.resolve('plist', { paths: [require.resolve('app-builder-lib')] }),
) as {
  parse(xml: string): unknown;
};

let config: Configuration;
beforeAll(async () => {
  config = await builderConfig.getConfig(ROOT, null, null);
});

const validate = (candidate: Configuration) =>
  builderConfig.validateConfiguration(structuredClone(candidate), new Logger(false));

/** electron-builder resolves resources against build/ first, then the project folder. */
function resource(file: string): string {
  const inBuild = path.resolve(ROOT, 'build', file);
  return existsSync(inBuild) ? inBuild : path.resolve(ROOT, file);
}

/** The patterns of `files`, which electron-builder's loader normalizes into filtered sets. */
function filePatterns(candidate: Configuration): string[] {
  return [candidate.files ?? []]
    .flat()
    .flatMap((set) => (typeof set === 'string' ? [set] : [set.filter ?? []].flat()));
}

function targetNames(platform: { target?: unknown } | null | undefined): string[] {
  const targets = [platform?.target ?? []].flat() as (string | { target: string })[];
  return targets.map((target) => (typeof target === 'string' ? target : target.target));
}

describe('electron-builder configuration', () => {
  it('is loaded from electron-builder.yml and passes electron-builder’s own schema', async () => {
    expect(config.appId).toBe('app.plantdesk.desktop');
    expect(config.productName).toBe('PlantDesk');
    await expect(validate(config)).resolves.toBeUndefined();
  });

  it('would reject a mistake, so the schema check is real', async () => {
    await expect(validate({ ...config, noSuchOption: true } as never)).rejects.toThrow(
      /unknown property 'noSuchOption'/,
    );
    await expect(
      validate({ ...config, electronFuses: { runAsNode: false, noSuchFuse: true } as never }),
    ).rejects.toThrow(/configuration\.electronFuses/);
  });

  it('packs only the built app into an asar, into release/', () => {
    expect(config.directories).toMatchObject({ output: 'release', buildResources: 'build' });
    expect(config.asar).toBe(true);
    // electron-builder's loader normalizes `files` into file sets with filters.
    const patterns = filePatterns(config);
    expect(patterns).toEqual(expect.arrayContaining(['out/**', 'package.json']));
    for (const source of ['server', 'api', 'electron', 'renderer', 'test', 'scripts', 'src']) {
      expect(patterns.some((pattern) => pattern.startsWith(source))).toBe(false);
    }
  });

  it('leaves the interactive API reference out; dist:with-docs puts it back and nothing else', async () => {
    const docsPackages = ['@fastify/swagger-ui', '@fastify/static'];
    const excluded = (patterns: string[]) =>
      docsPackages.filter((name) => patterns.includes(`!node_modules/${name}\${/*}`));
    expect(excluded(filePatterns(config))).toEqual(docsPackages);

    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    const configFile = /electron-builder -c (\S+)$/.exec(manifest.scripts['dist:with-docs']!)?.[1];
    expect(configFile).toBe('build/electron-builder.with-docs.mjs');
    const withDocs = await builderConfig.getConfig(ROOT, configFile!, null);
    await expect(validate(withDocs)).resolves.toBeUndefined();
    expect(excluded(filePatterns(withDocs))).toEqual([]);
    const { files: _files, ...rest } = withDocs;
    const { files: _baseFiles, ...baseRest } = config;
    expect(rest).toEqual(baseRest);
    expect(filePatterns(withDocs)).toEqual(
      filePatterns(config).filter((pattern) => !excluded([pattern]).length),
    );
    // Swagger UI is a dependency (the standalone server serves /docs); the static-file server is
    // only browser mode's, so a devDependency, and reaches an installer only through Swagger UI.
    expect(manifest.dependencies).toHaveProperty('@fastify/swagger-ui');
    expect(manifest.dependencies).not.toHaveProperty('@fastify/static');
  });

  it('builds AppImage and deb, NSIS, and dmg', () => {
    expect(targetNames(config.linux)).toEqual(['AppImage', 'deb']);
    expect(targetNames(config.win)).toEqual(['nsis']);
    expect(targetNames(config.mac)).toEqual(['dmg']);
  });

  it('flips the fuses that close Node-style entry points and check the asar', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('makes the deb depend on libsecret-1-0 without dropping electron-builder’s defaults', () => {
    const depends = config.deb?.depends ?? [];
    expect(depends).toContain('libsecret-1-0');
    // Typed from ESM, a CommonJS module is its exports object: `.default` is the class.
    const Fpm = (require('app-builder-lib/out/targets/FpmTarget.js') as typeof FpmTargetModule)
      .default;
    // `depends` replaces the defaults Electron needs, so every one of them must be listed again.
    const defaults = (
      Fpm.prototype as unknown as { getDefaultDepends(target: string): string[] }
    ).getDefaultDepends('deb');
    expect(defaults.length).toBeGreaterThan(3);
    expect(depends).toEqual(expect.arrayContaining(defaults));
    expect(config.linux?.category).toBe('Utility');
    expect(config.linux?.maintainer).toMatch(/<.+@.+>/); // dpkg needs a maintainer with an email
  });

  it('installs on Windows with a choice of folder', () => {
    expect(config.nsis).toMatchObject({
      oneClick: false,
      allowToChangeInstallationDirectory: true,
    });
  });

  it('signs for macOS with the hardened runtime and only the JIT entitlement', () => {
    expect(config.mac).toMatchObject({
      hardenedRuntime: true,
      category: 'public.app-category.utilities',
    });
    for (const file of [config.mac?.entitlements, config.mac?.entitlementsInherit]) {
      expect(file).toEqual(expect.stringMatching(/^build\/entitlements\.mac(\.inherit)?\.plist$/));
      const xml = readFileSync(path.resolve(ROOT, file!), 'utf8');
      expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<!DOCTYPE plist/);
      const entitlements = plist.parse(xml);
      // V8 needs JIT. Since Electron 12 nothing else: no unsigned executable memory, no
      // unvalidated libraries, no DYLD variables, no debugger attachment.
      expect(entitlements).toEqual({ 'com.apple.security.cs.allow-jit': true });
    }
  });

  it('refers only to icon files that exist and are the right kind', () => {
    expect(config.win?.icon).toBe('icon.ico');
    expect(config.mac?.icon).toBe('icon.icns');
    expect(readFileSync(resource(config.win!.icon!)).readUInt16LE(2)).toBe(1); // ICO type
    expect(readFileSync(resource(config.mac!.icon!)).toString('latin1', 0, 4)).toBe('icns');
    const linuxIcons = resource(config.linux!.icon!);
    expect(statSync(linuxIcons).isDirectory()).toBe(true);
    const names = readdirSync(linuxIcons);
    expect(names).toEqual(expect.arrayContaining(['16x16.png', '256x256.png', '512x512.png']));
    for (const name of names) expect(name).toMatch(/^(\d+)x\1\.png$/);
  });
});
