import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { builtOutputProblems, requestsOf } from './support/buildChecks.ts';
import { OUT, productionDependencies, requireFreshBuild } from './support/builtOut.ts';

/**
 * The real out/ of `electron-vite build` (issue 16, "Build assertions"): a sandboxed CommonJS
 * preload requiring only electron, main-process files loading only what the installed app has,
 * and no import.meta in shared chunks. buildChecks.test.ts shows each check failing on bad files.
 */

beforeAll(() => requireFreshBuild());

test('out/ meets every build check', () => {
  expect(builtOutputProblems(OUT, productionDependencies())).toEqual([]);
});

test('the checks read the real files: main loads electron and the server its dependencies', () => {
  const packages = (file: string) =>
    requestsOf(file, readFileSync(path.join(OUT, 'main', file), 'utf8')).map(
      (request) => request.specifier,
    );
  expect(packages('index.js')).toEqual(expect.arrayContaining(['electron', '@napi-rs/keyring']));
  expect(packages('localServer.js')).toEqual(expect.arrayContaining(['fastify', 'node:sqlite']));
});
