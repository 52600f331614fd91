import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, test } from 'vitest';
import {
  createFileLog,
  formatLine,
  MAX_LOGGED_STRING,
} from '../../../electron/services/fileLog.ts';
import { REDACTED, REDACTED_EMAIL } from '../../../electron/services/redaction.ts';

const FIXED_TIME = new Date('2025-06-01T10:00:00.000Z');
const clock = () => FIXED_TIME;
// A real-looking HS256 JWT (header {"alg":"HS256","typ":"JWT"}), as the API issues them.
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTEiLCJ0eXAiOiJhY2Nlc3MifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
const isPosix = process.platform !== 'win32';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-filelog-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const read = (file: string) => fs.readFileSync(file, 'utf8');
const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('file log lines', () => {
  it('writes one line per entry: ISO time, level, message, JSON fields', async () => {
    const log = createFileLog({ dir: root, clock });
    log.info('Local sandbox started', { port: 4321 });
    log.warn('Slow answer');
    log.error('Request failed', { status: 503, route: 'plants.list' });
    await log.close();

    expect(log.path).toBe(path.join(root, 'main.log'));
    expect(read(log.path).split('\n')).toEqual([
      '2025-06-01T10:00:00.000Z INFO Local sandbox started {"port":4321}',
      '2025-06-01T10:00:00.000Z WARN Slow answer',
      '2025-06-01T10:00:00.000Z ERROR Request failed {"status":503,"route":"plants.list"}',
      '',
    ]);
  });

  it('keeps a message with newlines on one line so it cannot forge entries', async () => {
    const log = createFileLog({ dir: root, clock });
    log.info('first\n2025-06-01T10:00:00.000Z ERROR forged\r');
    await log.close();
    const lines = read(log.path).trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('first\\n2025-06-01T10:00:00.000Z ERROR forged\\r');
  });

  it('appends to an existing log and ignores entries after close', async () => {
    const first = createFileLog({ dir: root, clock });
    first.info('one');
    await first.close();
    first.info('after close');
    const second = createFileLog({ dir: root, clock });
    second.info('two');
    await second.close();
    expect(read(second.path).match(/INFO (\w+)/g)).toEqual(['INFO one', 'INFO two']);
  });

  it('serializes errors with their message, status and cause', async () => {
    const log = createFileLog({ dir: root, clock });
    const error = Object.assign(new Error('boom', { cause: new Error('root cause') }), {
      status: 500,
    });
    log.error('Handler failed', { error });
    await log.close();
    const fields = JSON.parse(read(log.path).slice(read(log.path).indexOf('{')));
    expect(fields.error).toMatchObject({
      name: 'Error',
      message: 'boom',
      status: 500,
      cause: { message: 'root cause' },
    });
    expect(fields.error.stack).toContain('boom');
  });
});

describe('file log rotation', () => {
  // Every entry below is exactly 100 bytes: 24 (time) + 1 + 4 (INFO) + 1 + 69 (message) + 1.
  const entry = (index: number) => `entry ${String(index).padStart(4, '0')} `.padEnd(69, 'x');

  it('rolls main.log to main.1.log … and keeps maxFiles files of at most maxBytes', async () => {
    const log = createFileLog({ dir: root, clock, maxBytes: 1000, maxFiles: 3 });
    for (let index = 0; index < 45; index++) log.info(entry(index));
    await log.close();

    expect(fs.readdirSync(root).sort()).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    const sizes = ['main.2.log', 'main.1.log', 'main.log'].map(
      (name) => fs.statSync(path.join(root, name)).size,
    );
    // 45 entries of 100 bytes: files hold 10 each, so 20..29, 30..39, then 40..44 remain.
    expect(sizes).toEqual([1000, 1000, 500]);
    const numbers = (name: string) =>
      [...read(path.join(root, name)).matchAll(/entry (\d{4})/g)].map((m) => Number(m[1]));
    expect(numbers('main.2.log')).toEqual(range(20, 30));
    expect(numbers('main.1.log')).toEqual(range(30, 40));
    expect(numbers('main.log')).toEqual(range(40, 45));
  });

  it('counts what an existing file already holds before rotating', async () => {
    fs.writeFileSync(path.join(root, 'main.log'), 'x'.repeat(950));
    const log = createFileLog({ dir: root, clock, maxBytes: 1000, maxFiles: 2 });
    log.info(entry(1));
    await log.close();
    expect(fs.statSync(path.join(root, 'main.1.log')).size).toBe(950);
    expect(fs.statSync(path.join(root, 'main.log')).size).toBe(100);
  });

  it('with maxFiles 1 keeps only the current file', async () => {
    const log = createFileLog({ dir: root, clock, maxBytes: 300, maxFiles: 1 });
    for (let index = 0; index < 7; index++) log.info(entry(index));
    await log.close();
    expect(fs.readdirSync(root)).toEqual(['main.log']);
    expect(read(log.path)).toContain('entry 0006');
    expect(read(log.path)).not.toContain('entry 0005');
  });

  it('cuts a single entry longer than maxBytes to fit, without splitting a character', async () => {
    const log = createFileLog({ dir: root, clock, maxBytes: 300 });
    log.info('é'.repeat(400));
    await log.close();
    const bytes = fs.readFileSync(log.path);
    expect(bytes.length).toBeLessThanOrEqual(300);
    const text = bytes.toString('utf8');
    expect(text).not.toContain('\uFFFD');
    expect(text.endsWith('…[truncated]\n')).toBe(true);
  });

  it('uses a custom file name for the rotated files', async () => {
    const log = createFileLog({ dir: root, fileName: 'web.log', clock, maxBytes: 300 });
    for (let index = 0; index < 4; index++) log.info(entry(index));
    await log.close();
    expect(fs.readdirSync(root).sort()).toEqual(['web.1.log', 'web.log']);
  });

  it('reports a failed rotation once and keeps logging into the current file', async () => {
    const errors: unknown[] = [];
    // A directory where main.1.log should go makes the rename fail.
    fs.mkdirSync(path.join(root, 'main.1.log', 'blocker'), { recursive: true });
    const log = createFileLog({
      dir: root,
      clock,
      maxBytes: 300,
      maxFiles: 2,
      onWriteError: (error) => errors.push(error),
    });
    expect(() => {
      for (let index = 0; index < 5; index++) log.info(entry(index));
    }).not.toThrow();
    await log.close();
    expect(errors).toHaveLength(1);
    expect(read(log.path)).toContain('entry 0004');
  });

  it('rejects limits that cannot work', () => {
    expect(() => createFileLog({ dir: root, maxBytes: 10 })).toThrow(RangeError);
    expect(() => createFileLog({ dir: root, maxFiles: 0 })).toThrow(RangeError);
  });
});

describe.runIf(isPosix)('file log permissions', () => {
  it('creates the folder 0700 and every log file 0600', async () => {
    const dir = path.join(root, 'nested', 'logs');
    const log = createFileLog({ dir, clock, maxBytes: 300, maxFiles: 3 });
    for (let index = 0; index < 10; index++) log.info(`entry ${index}`.padEnd(69, 'x'));
    await log.close();
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(root, 'nested'))).toBe(0o700);
    const files = fs.readdirSync(dir);
    expect(files.sort()).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    for (const file of files) expect(mode(path.join(dir, file))).toBe(0o600);
  });

  it('tightens an existing log file that others could read', async () => {
    const file = path.join(root, 'main.log');
    fs.writeFileSync(file, '', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const log = createFileLog({ dir: root, clock });
    await log.close();
    expect(mode(file)).toBe(0o600);
  });
});

describe('file log redaction', () => {
  async function logged(message: string, fields?: Record<string, unknown>): Promise<string> {
    const log = createFileLog({ dir: root, clock });
    log.info(message, fields);
    await log.close();
    return read(log.path);
  }

  it('masks fields whose key names a secret, at any depth', async () => {
    const text = await logged('Signed in', {
      email: 'admin@plantdesk.test',
      accessToken: 'abc',
      password: 'admin-pass-1',
      nested: {
        refresh_token: 'def',
        headers: { Authorization: 'x', Cookie: 'sid=1', 'x-api-key': 'k', accept: 'json' },
        list: [{ clientSecret: 's' }, { harmless: 1 }],
      },
    });
    const fields = JSON.parse(text.slice(text.indexOf('{')));
    expect(fields).toEqual({
      email: REDACTED_EMAIL,
      accessToken: REDACTED,
      password: REDACTED,
      nested: {
        refresh_token: REDACTED,
        headers: {
          Authorization: REDACTED,
          Cookie: REDACTED,
          'x-api-key': REDACTED,
          accept: 'json',
        },
        list: [{ clientSecret: REDACTED }, { harmless: 1 }],
      },
    });
    for (const secret of ['abc', 'admin-pass-1', 'def', 'sid=1']) {
      expect(text).not.toContain(`"${secret}"`);
    }
  });

  it('masks a JWT and a Bearer credential in the message and in field values', async () => {
    const text = await logged(`Refresh failed for ${JWT} (Authorization: Bearer opaque-123)`, {
      detail: `sent ${JWT}`,
      deeper: { values: [`Bearer ${JWT}`, 'plain'] },
    });
    expect(text).not.toContain(JWT);
    expect(text).not.toContain('eyJ');
    expect(text).not.toContain('opaque-123');
    expect(text).toContain(`Refresh failed for ${REDACTED} (Authorization: Bearer ${REDACTED})`);
    expect(text).toContain('"plain"');
  });

  it('masks an e-mail address and the password of an address in a logged field', async () => {
    const text = await logged('Sensor test failed', {
      sensor: { address: 'modbus://admin:s3cret-pw@inverter:502/1', owner: 'owner@example.org' },
      problem: 'sent by installer@plantdesk.test to https://u:hunter2@proxy.example/',
    });
    for (const secret of [
      's3cret-pw',
      'owner@example.org',
      'installer@plantdesk.test',
      'hunter2',
    ]) {
      expect(text).not.toContain(secret);
    }
    const fields = JSON.parse(text.slice(text.indexOf('{')));
    expect(fields).toEqual({
      sensor: { address: `modbus://admin:${REDACTED}@inverter:502/1`, owner: REDACTED_EMAIL },
      problem: `sent by ${REDACTED_EMAIL} to https://u:${REDACTED}@proxy.example/`,
    });
  });

  it('masks a Basic credential in the message', async () => {
    const text = await logged('Proxy refused Proxy-Authorization: Basic dXNlcjpwYXNz');
    expect(text).toContain(`Proxy refused Proxy-Authorization: Basic ${REDACTED}\n`.slice(0, -2));
    expect(text).not.toContain('dXNlcjpwYXNz');
  });

  it('walks no deeper than 8 levels', async () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let level = 0; level < 10; level++) deep = { next: deep };
    const text = await logged('Deep', { deep });
    expect(text).toContain('"[too deep]"');
    expect(text).not.toContain('leaf');
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, index) => from + index);
}

describe('redaction time is bounded', () => {
  /** The entry as the log formats it: every string cut first, then redacted. */
  const redactText = (text: string) => formatLine(FIXED_TIME, 'info', text);
  const timeOf = (work: () => void): number => {
    const started = performance.now();
    work();
    return performance.now() - started;
  };

  test("'tokenx-' 2,300 times (64 s before) is redacted at once", () => {
    const crafted = 'tokenx-'.repeat(2300);
    expect(timeOf(() => redactText(crafted))).toBeLessThan(50);
    expect(timeOf(() => redactText(`${crafted}=secret-value`))).toBeLessThan(50);
  });

  test('every string is cut to a few KB first, and says how much was left out', () => {
    const long = `password=hunter2 ${'x'.repeat(100_000)}`;
    const redacted = redactText(long);
    expect(redacted.length).toBeLessThan(MAX_LOGGED_STRING + 80);
    expect(redacted).toContain(`…[${long.length - MAX_LOGGED_STRING} more characters]`);
    expect(redacted).not.toContain('hunter2');
  });

  test('any string up to 100 KB, however crafted, is redacted in under 50 ms', () => {
    const fragments = fc.constantFrom(
      'token',
      'x-',
      '-',
      '_',
      '=',
      ':',
      '"',
      "'",
      ' ',
      'Bearer ',
      'password',
      'ey',
      'eyJ',
      '.',
      'key',
      'a',
      'Z',
      '9',
      '&',
      ';',
      '}',
      '\n',
      'secret',
    );
    const crafted = fc
      .tuple(
        fc.array(fragments, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 5000 }),
      )
      .map(([parts, times]) => parts.join('').repeat(times).slice(0, 100_000));
    const arbitrary = fc.oneof(crafted, fc.string({ maxLength: 100_000, unit: 'binary' }));
    fc.assert(
      fc.property(arbitrary, (text) => {
        // The fastest of three: a busy machine can pause any one run for longer than the bound,
        // while a pattern that backtracks is slow every time (seconds, not milliseconds).
        const fastest = Math.min(...[1, 2, 3].map(() => timeOf(() => redactText(text))));
        expect(fastest).toBeLessThan(50);
      }),
      { numRuns: 200 },
    );
  });
});
