import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  STALE_TEMPORARY_MS,
  sweepStaleTemporaries,
  writeFileDurably,
  type DurableWriteOps,
} from '../../../electron/services/durableFile.ts';

const MODULE = fileURLToPath(new URL('../../../electron/services/durableFile.ts', import.meta.url));

let folder = '';
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-durable-'));
});
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

/** The real calls, each also recorded as `name(arguments that matter)`. */
function recordingOps(calls: string[], failOn?: string): DurableWriteOps {
  const name = (file: string) =>
    file === folder ? 'folder' : path.basename(file).replace(/\.\d+\.[0-9a-f]+\.tmp$/, '.tmp');
  const fail = (call: string) => {
    calls.push(call);
    if (failOn && call.startsWith(failOn))
      throw Object.assign(new Error(`${call} failed`), { code: 'EIO' });
  };
  return {
    openSync: (file, flags, mode) => {
      fail(`open(${name(file)}, ${flags}, ${mode.toString(8)})`);
      return fs.openSync(file, flags, mode);
    },
    writeSync: (fd, data) => {
      fail(`write(${data.length})`);
      return fs.writeSync(fd, data);
    },
    fsyncSync: (fd) => {
      fail('fsync');
      fs.fsyncSync(fd);
    },
    fchmodSync: (fd, mode) => {
      fail(`fchmod(${mode.toString(8)})`);
      fs.fchmodSync(fd, mode);
    },
    closeSync: (fd) => {
      calls.push('close');
      fs.closeSync(fd);
    },
    renameSync: (from, to) => {
      fail(`rename(${name(from)}, ${name(to)})`);
      fs.renameSync(from, to);
    },
    rmSync: (file, options) => {
      calls.push(`rm(${name(file)})`);
      fs.rmSync(file, options);
    },
  };
}

describe('writeFileDurably', () => {
  test('flushes the data before the rename, and the folder after it', () => {
    const file = path.join(folder, 'environments.json');
    const calls: string[] = [];
    writeFileDurably(file, '{"a":1}\n', 0o600, recordingOps(calls));
    expect(calls).toEqual([
      'open(environments.json.tmp, wx, 600)',
      'fchmod(600)',
      'write(8)',
      'fsync',
      'close',
      'rename(environments.json.tmp, environments.json)',
      'open(folder, r, 0)',
      'fsync',
      'close',
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(folder)).toEqual(['environments.json']);
  });

  test('a failed write or flush leaves the old file and no temporary file', () => {
    const file = path.join(folder, 'settings.json');
    fs.writeFileSync(file, 'old');
    for (const failOn of ['write', 'fsync', 'rename']) {
      const calls: string[] = [];
      expect(() => writeFileDurably(file, 'new', 0o600, recordingOps(calls, failOn))).toThrow(
        `${failOn}`,
      );
      expect(calls.at(-1), failOn).toBe('rm(settings.json.tmp)');
      expect(fs.readFileSync(file, 'utf8')).toBe('old');
      expect(fs.readdirSync(folder)).toEqual(['settings.json']);
    }
  });

  test('the mode holds whatever the umask', () => {
    const file = path.join(folder, 'secret.json');
    const before = process.umask(0o077);
    try {
      writeFileDurably(file, 'x', 0o640);
    } finally {
      process.umask(before);
    }
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
  });

  test('a writer killed mid-way leaves one whole version, never an empty or partial file', async () => {
    const file = path.join(folder, 'environments.json');
    // Two versions large enough that a write takes a while; the writer alternates them.
    const versions = ['a', 'b'].map((letter) =>
      JSON.stringify({ version: letter, padding: letter.repeat(512 * 1024) }),
    );
    fs.writeFileSync(file, versions[0]!);
    const writer = `
      import { writeFileDurably } from ${JSON.stringify(MODULE)};
      const file = ${JSON.stringify(file)};
      const texts = ${JSON.stringify(['a', 'b'])}.map((letter) =>
        JSON.stringify({ version: letter, padding: letter.repeat(512 * 1024) }));
      process.stdout.write('ready\\n');
      for (let i = 0; ; i += 1) writeFileDurably(file, texts[i % 2]);
    `;
    for (let round = 0; round < 12; round += 1) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', writer], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      // Somewhere in a write: 5–45 ms after it started writing, varied by round.
      await new Promise((resolve) => setTimeout(resolve, 5 + ((round * 7) % 41)));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const text = fs.readFileSync(file, 'utf8');
      expect(versions, `round ${round}`).toContain(text);
    }
    // Whatever the last writer left beside the file goes at the next start; the file stays.
    sweepStaleTemporaries(folder);
    expect(fs.readdirSync(folder)).toEqual(['environments.json']);
    expect(versions).toContain(fs.readFileSync(file, 'utf8'));
  }, 60_000);
});

/** The id of a process that has ended (and, for the test's length, is not reused). */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('sweepStaleTemporaries', () => {
  const NOW = Date.parse('2026-06-21T10:00:00Z');
  const RUNNING = 4_000_001;
  const ENDED = 4_000_002;
  const isRunning = (pid: number) => pid === RUNNING;

  function put(name: string, ageMs = 0): void {
    fs.writeFileSync(path.join(folder, name), 'x');
    const at = new Date(NOW - ageMs);
    fs.utimesSync(path.join(folder, name), at, at);
  }

  test('removes leftovers of ended writers, old ones and this pid’s; keeps the rest', () => {
    put('environments.json');
    put(`environments.json.${ENDED}.0123abcd.tmp`);
    put(`drafts.json.${RUNNING}.89abcdef.tmp`, STALE_TEMPORARY_MS + 1);
    put(`language.json.${process.pid}.00000000.tmp`);
    // A running writer's fresh file, and names that only look alike.
    put(`window-state.json.${RUNNING}.fedcba98.tmp`, 1_000);
    put('notes.json.tmp');
    put(`environments.json.${ENDED}.xyz.tmp`);
    put(`environments.json.${ENDED}.0123abcd.tmp.bak`);
    put(`environments.json.${ENDED}.0123ABCD.tmp`);
    fs.mkdirSync(path.join(folder, `folder.${ENDED}.0123abcd.tmp`));

    const removed = sweepStaleTemporaries(folder, { now: NOW, isRunning });

    expect(removed.sort()).toEqual(
      [
        `environments.json.${ENDED}.0123abcd.tmp`,
        `drafts.json.${RUNNING}.89abcdef.tmp`,
        `language.json.${process.pid}.00000000.tmp`,
      ].sort(),
    );
    expect(fs.readdirSync(folder).sort()).toEqual(
      [
        'environments.json',
        `window-state.json.${RUNNING}.fedcba98.tmp`,
        'notes.json.tmp',
        `environments.json.${ENDED}.xyz.tmp`,
        `environments.json.${ENDED}.0123abcd.tmp.bak`,
        `environments.json.${ENDED}.0123ABCD.tmp`,
        `folder.${ENDED}.0123abcd.tmp`,
      ].sort(),
    );
  });

  test('a missing folder is nothing to sweep', () => {
    expect(sweepStaleTemporaries(path.join(folder, 'absent'))).toEqual([]);
  });

  test('the first durable write into a folder sweeps it, with the real process table', () => {
    const leftover = `settings.json.${endedPid()}.0123abcd.tmp`;
    put(leftover);
    writeFileDurably(path.join(folder, 'settings.json'), '{}');
    expect(fs.readdirSync(folder)).toEqual(['settings.json']);
  });
});
