import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import {
  recordCrashes,
  type CrashSources,
  type GoneContents,
  type GoneDetails,
} from '../../../electron/services/crashRecorder.ts';
import { createFileLog } from '../../../electron/services/fileLog.ts';
import type { Logger } from '../../../electron/services/logger.ts';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl';

type Tell = (details: GoneDetails, logPath: string) => Promise<void>;

function setUp(log: Logger, tell = vi.fn<Tell>(async () => {})) {
  const processEvents = new EventEmitter();
  const appEvents = new EventEmitter();
  recordCrashes({ process: processEvents, app: appEvents } as unknown as CrashSources, {
    log,
    logPath: '/logs/main.log',
    tellRendererGone: tell,
  });
  return { processEvents, appEvents, tell };
}

function recordingLog() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const log: Logger = {
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
  };
  return { log, lines };
}

function contents(destroyed = false) {
  const reload = vi.fn<() => void>();
  const window: GoneContents = {
    isDestroyed: () => destroyed,
    reload,
  };
  return Object.assign(window, { reload });
}

const crashed: GoneDetails = { reason: 'crashed', exitCode: 139 };

describe('recordCrashes', () => {
  test('an uncaught exception and an unhandled rejection are logged with their stack', () => {
    const { log, lines } = recordingLog();
    const { processEvents } = setUp(log);
    processEvents.emit(
      'uncaughtExceptionMonitor',
      new TypeError('x is undefined'),
      'uncaughtException',
    );
    processEvents.emit('unhandledRejection', new Error('request failed'));
    processEvents.emit('unhandledRejection', 'a plain reason');
    expect(lines.map((line) => [line.level, line.message, line.fields?.error])).toEqual([
      ['error', 'Uncaught exception in the main process', 'TypeError: x is undefined'],
      ['error', 'Unhandled promise rejection in the main process', 'Error: request failed'],
      ['error', 'Unhandled promise rejection in the main process', 'a plain reason'],
    ]);
    expect(lines[0]!.fields).toMatchObject({ origin: 'uncaughtException' });
    expect(String(lines[0]!.fields!.stack)).toContain('crashRecorder.test.ts');
  });

  test('a dead renderer is logged, told to the user with the log location, then reloaded', async () => {
    const { log, lines } = recordingLog();
    const { appEvents, tell } = setUp(log);
    const window = contents();
    appEvents.emit('render-process-gone', {}, window, crashed);
    expect(lines[0]).toMatchObject({
      level: 'error',
      message: 'A window’s renderer ended abnormally',
      fields: { reason: 'crashed', exitCode: 139 },
    });
    expect(tell).toHaveBeenCalledWith(crashed, '/logs/main.log');
    await vi.waitFor(() => expect(window.reload).toHaveBeenCalledOnce());
  });

  test('a window closed meanwhile is not reloaded; a clean exit is not a crash', async () => {
    const { log, lines } = recordingLog();
    const { appEvents, tell } = setUp(log);
    const closed = contents(true);
    appEvents.emit('render-process-gone', {}, closed, { reason: 'oom', exitCode: 0 });
    await vi.waitFor(() => expect(tell).toHaveBeenCalledOnce());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closed.reload).not.toHaveBeenCalled();
    appEvents.emit('render-process-gone', {}, contents(), { reason: 'clean-exit', exitCode: 0 });
    appEvents.emit('child-process-gone', {}, { reason: 'clean-exit', exitCode: 0, type: 'GPU' });
    expect(tell).toHaveBeenCalledOnce();
    expect(lines.filter((line) => line.level === 'error')).toHaveLength(1);
  });

  test('a dialog that fails still reloads the window', async () => {
    const { log, lines } = recordingLog();
    const { appEvents } = setUp(
      log,
      vi.fn<Tell>(async () => {
        throw new Error('no display');
      }),
    );
    const window = contents();
    appEvents.emit('render-process-gone', {}, window, crashed);
    await vi.waitFor(() => expect(window.reload).toHaveBeenCalledOnce());
    expect(lines.map((line) => line.message)).toContain('Renderer crash not shown');
  });

  test('a child process that dies is logged with its kind and name', () => {
    const { log, lines } = recordingLog();
    const { appEvents } = setUp(log);
    appEvents.emit(
      'child-process-gone',
      {},
      {
        reason: 'crashed',
        exitCode: 1,
        type: 'Utility',
        name: 'Local sandbox',
      },
    );
    expect(lines).toEqual([
      {
        level: 'error',
        message: 'A child process ended abnormally',
        fields: { reason: 'crashed', exitCode: 1, type: 'Utility', name: 'Local sandbox' },
      },
    ]);
  });

  test('in the file log, a token in a crash message is redacted like every entry', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-crash-'));
    try {
      const log = createFileLog({ dir, fileName: 'main.log' });
      const { processEvents } = setUp(log);
      processEvents.emit(
        'uncaughtExceptionMonitor',
        new Error(`request with Authorization: Bearer ${TOKEN} failed`),
        'uncaughtException',
      );
      await log.close();
      const text = fs.readFileSync(path.join(dir, 'main.log'), 'utf8');
      expect(text).toContain('Uncaught exception in the main process');
      expect(text).not.toContain(TOKEN);
      expect(text).toContain('[redacted]');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
