import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { UtilityProcess } from 'electron';
import { afterAll, describe, expect, test } from 'vitest';
import { STOP_MESSAGE } from '../../electron/main/parentPortStop.ts';
import { createUtilityProcessServer } from '../../electron/main/utilityProcessServer.ts';
import { KILL_GRACE_MS, StandInUtilityProcess } from './standInElectron/utilityProcess.ts';

/**
 * The stand-in's utility process behaves as Electron documents it (real child processes), and
 * the app's utilityProcessServer.ts keeps what Electron would otherwise drop: the last lines of a
 * crash, and a graceful stop asked over the parent port.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), 'plantdesk-utility-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const crasher = script(
  'crasher.mjs',
  `process.stdout.write('starting\\n');
process.stderr.write('Error: the crash reason');
process.exitCode = 3;`,
);
const stubborn = script(
  'stubborn.mjs',
  `process.on('SIGTERM', () => console.log('SIGTERM ignored'));
console.log('ready');
setInterval(() => {}, 1000);`,
);
const graceful = script(
  'graceful.mjs',
  `process.parentPort.on('message', (event) => {
  if (event.data !== '${STOP_MESSAGE}') return;
  console.log('stopping');
  process.exit(0);
});
console.log('ready');
setInterval(() => {}, 1000);`,
);

function exited(child: StandInUtilityProcess): Promise<number> {
  return new Promise((resolve) => child.once('exit', resolve));
}

function untilLine(child: StandInUtilityProcess, line: string): Promise<void> {
  return new Promise((resolve) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (text.includes(line)) resolve();
    });
  });
}

describe('the stand-in utility process', () => {
  test("spawns, exits with the code, then drops the streams' listeners and its pid", async () => {
    const child = new StandInUtilityProcess(crasher, [], { stdio: 'pipe' });
    const spawned = new Promise<void>((resolve) => child.once('spawn', resolve));
    const stdout = child.stdout!;
    stdout.on('data', () => {});
    await spawned;
    expect(child.pid).toBeGreaterThan(0);
    expect(await exited(child)).toBe(3);
    expect(child.pid).toBeUndefined();
    expect(child.stdout).toBeNull();
    expect(child.stderr).toBeNull();
    expect(stdout.listenerCount('data')).toBe(0);
    expect(child.kill()).toBe(false);
  });

  test('kill() is SIGTERM, then SIGKILL after 2 s for a process that stays', async () => {
    const child = new StandInUtilityProcess(stubborn, [], { stdio: 'pipe' });
    await untilLine(child, 'ready');
    const started = performance.now();
    const exit = exited(child);
    expect(child.kill()).toBe(true);
    expect(await exit).toBe(128 + os.constants.signals.SIGKILL);
    expect(performance.now() - started).toBeGreaterThanOrEqual(KILL_GRACE_MS - 100);
    expect(child.record.signals).toEqual(['SIGTERM', 'SIGKILL']);
  }, 10_000);
});

describe("the app's utility process server over it", () => {
  function spawnWith(modulePath: string) {
    const children: StandInUtilityProcess[] = [];
    const spawn = createUtilityProcessServer({
      fork(file, args, options) {
        const child = new StandInUtilityProcess(file, args, options);
        children.push(child);
        return child as unknown as UtilityProcess;
      },
      modulePath,
    });
    const server = spawn([]);
    const lines: string[] = [];
    server.onOutput((line, stream) => lines.push(`${stream}: ${line}`));
    return { server, lines, child: () => children[0]! };
  }

  test('a crash is reported at once with its last line, though Electron drops the streams', async () => {
    const { server, lines, child } = spawnWith(crasher);
    const code = await new Promise<number | null>((resolve) => server.onExit(resolve));
    const reportedAt = performance.now();
    expect(code).toBe(3);
    expect(lines).toEqual(['stdout: starting', 'stderr: Error: the crash reason']);
    // Reported on 'exit', not after waiting for streams that no longer have listeners.
    expect(reportedAt - child().record.exit!.at).toBeLessThan(500);
  });

  test('kill() asks over the parent port and the process ends by itself, unsignalled', async () => {
    const { server, lines, child } = spawnWith(graceful);
    const deadline = Date.now() + 10_000;
    while (!lines.includes('stdout: ready') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const exit = new Promise<number | null>((resolve) => server.onExit(resolve));
    server.kill();
    expect(await exit).toBe(0);
    expect(lines).toContain('stdout: stopping');
    expect(child().record.messages).toEqual([STOP_MESSAGE]);
    expect(child().record.signals).toEqual([]);
  });
});
