import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../../../server/appRoot.ts';

describe('appRoot', () => {
  const asar = path.join('/opt/PlantDesk/resources/app.asar');
  const packaged = (file: string) => file === path.join(asar, 'package.json');

  it('is the same from an entry and from a chunk at any depth', () => {
    for (const dir of ['out/main', 'out/main/chunks', 'out/main/chunks/deep/er']) {
      expect(appRoot(path.join(asar, dir), packaged)).toBe(asar);
    }
  });

  it('is the repository from the sources, whichever file asks', () => {
    const repository = fileURLToPath(new URL('../../..', import.meta.url));
    for (const dir of ['server/http', 'electron/main', 'test/unit/desktop']) {
      expect(appRoot(path.join(repository, dir))).toBe(path.resolve(repository));
    }
  });

  it('says so when there is no package.json above', () => {
    expect(() => appRoot(path.join('/nowhere/out/main'), () => false)).toThrow(
      /No package.json above/,
    );
  });
});
