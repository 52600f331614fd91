import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bareImportProblems,
  builtOutputProblems,
  importMetaProblems,
  packageName,
  preloadProblems,
  requestsOf,
} from './support/buildChecks.ts';

/**
 * The build checks against crafted files, good and bad, so that each one is known to catch the
 * regression it is for (and to say so clearly) before it is trusted with the real out/.
 */

const DEPENDENCIES = ['fastify', '@napi-rs/keyring', 'zod'];

describe('requestsOf', () => {
  it('finds static imports, re-exports, import() and every spelling of require', () => {
    const source = [
      "import a from 'node:fs';",
      "export { b } from './chunk.js';",
      "export * from 'zod';",
      "const c = await import('fastify');",
      "const d = require('luxon');",
      "import { createRequire } from 'node:module';",
      'const __require = createRequire(import.meta.url);',
      "__require('pg');",
      "createRequire(import.meta.url)('axios');",
      'import(`./${name}.js`);',
    ].join('\n');
    expect(requestsOf('x.js', source)).toEqual([
      { specifier: 'node:fs', kind: 'import', line: 1 },
      { specifier: 'node:module', kind: 'import', line: 6 },
      { specifier: './chunk.js', kind: 'export', line: 2 },
      { specifier: 'zod', kind: 'export', line: 3 },
      { specifier: 'fastify', kind: 'import()', line: 4 },
      { specifier: null, kind: 'import()', line: 10 },
      { specifier: 'luxon', kind: 'require', line: 5 },
      { specifier: 'pg', kind: 'require', line: 8 },
      { specifier: 'axios', kind: 'require', line: 9 },
    ]);
  });

  it('ignores specifier-like text inside strings and comments', () => {
    const source = 'const s = \'import x from "vue"\'; // require("vite")\n/* import("pinia") */';
    expect(requestsOf('x.js', source)).toEqual([]);
  });

  it('names the file when it does not parse', () => {
    expect(() => requestsOf('broken.js', 'import {')).toThrow(/broken\.js does not parse/);
  });
});

describe('packageName', () => {
  it('drops subpaths and keeps scopes', () => {
    expect(packageName('kysely/migration')).toBe('kysely');
    expect(packageName('@fastify/swagger-ui/static')).toBe('@fastify/swagger-ui');
    expect(packageName('zod')).toBe('zod');
  });
});

describe('bareImportProblems', () => {
  it('accepts Node built-ins (with and without node:), electron, dependencies and relative files', () => {
    const source = [
      "import fs from 'node:fs';",
      "import path from 'path';",
      "import { DatabaseSync } from 'node:sqlite';",
      "import { app } from 'electron';",
      "import { net } from 'electron/main';",
      "import Fastify from 'fastify';",
      "import { z } from 'zod/v4';",
      "import { shared } from './chunks/shared-1a2b.js';",
      "const keyring = () => import('@napi-rs/keyring');",
    ].join('\n');
    expect(bareImportProblems('main/index.js', source, DEPENDENCIES)).toEqual([]);
  });

  it('reports a devDependency, an unknown package and a computed specifier, with file and line', () => {
    const source = [
      "import Fastify from 'fastify';",
      "import { ref } from 'vue';",
      "const chart = require('chart.js');",
      'const plugin = await import(name);',
    ].join('\n');
    expect(bareImportProblems('main/index.js', source, DEPENDENCIES)).toEqual([
      "main/index.js:2: import 'vue' is neither a Node built-in, electron nor a package.json dependency",
      'main/index.js:4: import() of a computed specifier, which the build cannot check',
      "main/index.js:3: require 'chart.js' is neither a Node built-in, electron nor a package.json dependency",
    ]);
  });

  it('does not take a package whose name starts like a dependency for it', () => {
    expect(bareImportProblems('x.js', "import 'fastify-extra';", DEPENDENCIES)).toEqual([
      "x.js:1: import 'fastify-extra' is neither a Node built-in, electron nor a package.json dependency",
    ]);
  });
});

describe('importMetaProblems', () => {
  it('accepts a chunk that does not use import.meta', () => {
    expect(importMetaProblems('chunks/a.js', "export const a = 'import.meta';")).toEqual([]);
  });

  it('reports each use of import.meta with its line', () => {
    const source =
      "import { join } from 'node:path';\nexport const icon = join(import.meta.dirname, 'x.png');";
    expect(importMetaProblems('main/chunks/a.js', source)).toEqual([
      'main/chunks/a.js:2: uses import.meta in a shared chunk',
    ]);
  });
});

describe('preloadProblems', () => {
  it('accepts a CommonJS script that requires only electron', () => {
    const source =
      "'use strict';\nconst { contextBridge } = require('electron');\ncontextBridge.exposeInMainWorld('x', {});";
    expect(preloadProblems('preload/index.cjs', source)).toEqual([]);
  });

  it('reports an ES module', () => {
    const source = "import { contextBridge } from 'electron';";
    expect(preloadProblems('preload/index.cjs', source)).toEqual([
      'preload/index.cjs is not a CommonJS script: Cannot use import statement outside a module',
    ]);
  });

  it('reports import.meta, which only a module may use', () => {
    expect(preloadProblems('p.cjs', 'console.log(import.meta.url);')[0]).toMatch(
      /^p\.cjs is not a CommonJS script: .*import\.meta/,
    );
  });

  it('reports any other require, a computed one and import()', () => {
    const source = [
      "const { ipcRenderer } = require('electron');",
      "const path = require('node:path');",
      'const x = require(name);',
      "import('./api.js');",
    ].join('\n');
    expect(preloadProblems('p.cjs', source)).toEqual([
      'p.cjs:4: import() in a sandboxed preload',
      "p.cjs:2: requires 'node:path', not only electron",
      'p.cjs:3: requires a computed specifier, not only electron',
    ]);
  });
});

describe('builtOutputProblems', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'plantdesk-build-checks-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  function writeOut(name: string, files: Record<string, string>): string {
    const out = path.join(folder, name);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
      writeFileSync(path.join(out, file), text);
    }
    return out;
  }

  const good = {
    'preload/index.cjs': "const electron = require('electron');",
    'main/index.js':
      "import { app } from 'electron';\nimport { a } from './chunks/a.js';\nconsole.log(import.meta.dirname);",
    'main/localServer.js': "import Fastify from 'fastify';\nimport { a } from './chunks/a.js';",
    'main/chunks/a.js': "import { z } from 'zod';\nexport const a = z.string();",
  };

  it('passes a good out/', () => {
    expect(builtOutputProblems(writeOut('good', good), DEPENDENCIES)).toEqual([]);
  });

  it('reports every bad file of out/, the chunks included', () => {
    const out = writeOut('bad', {
      ...good,
      'preload/index.cjs': "const { join } = require('path');",
      'main/chunks/b.js': "import vue from 'vue';\nexport const here = import.meta.url;",
    });
    expect(builtOutputProblems(out, DEPENDENCIES)).toEqual([
      "preload/index.cjs:1: requires 'path', not only electron",
      "main/chunks/b.js:1: import 'vue' is neither a Node built-in, electron nor a package.json dependency",
      'main/chunks/b.js:2: uses import.meta in a shared chunk',
    ]);
  });

  it('says so when out/ has not been built', () => {
    expect(builtOutputProblems(path.join(folder, 'nothing'), DEPENDENCIES)).toEqual([
      'preload/index.cjs is missing',
    ]);
  });
});
