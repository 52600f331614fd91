import fs from 'node:fs';
import path from 'node:path';
import type { LogFields, Logger } from './logger.ts';
import { redactText, redactValue, type RedactionLimits } from './redaction.ts';

/**
 * The desktop app's and the web host's log on disk: one line per entry, a few size-capped files,
 * and secrets masked before anything is written (redaction.ts, the support bundle's rules too).
 *
 * Appends are synchronous on purpose. Entries are small and rare (lifecycle events, failures,
 * never per-request traffic), a synchronous write keeps entries in order without a queue, and a
 * crash right after `error()` still leaves the line on disk, which is when it matters most.
 */

export interface FileLogOptions {
  /** Created with mode 0700 if missing. Point it at a folder only the log uses. */
  dir: string;
  fileName?: string;
  /** No file grows past this many bytes; a longer single entry is cut to fit. */
  maxBytes?: number;
  /** How many files are kept in all: `main.log` plus `main.1.log` … `main.<maxFiles-1>.log`. */
  maxFiles?: number;
  clock?: () => Date;
  /** Where a failure to write goes; logging never throws into the code that logs. */
  onWriteError?: (error: unknown) => void;
}

export type FileLog = Logger & {
  close(): Promise<void>;
  readonly path: string;
};

type Level = 'info' | 'warn' | 'error';

/**
 * Every string is cut to a few thousand characters before anything else looks at it: a log line
 * is for a person, and no pattern then ever runs over a request body or a whole response.
 */
export const MAX_LOGGED_STRING = 4000;
const LIMITS: RedactionLimits = { maxStringLength: MAX_LOGGED_STRING, maxDepth: 8 };

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

export function createFileLog(options: FileLogOptions): FileLog {
  const {
    dir,
    fileName = 'main.log',
    maxBytes = 1_000_000,
    maxFiles = 5,
    clock = () => new Date(),
    onWriteError = (error) => console.error('PlantDesk file log: cannot write', error),
  } = options;
  if (!Number.isInteger(maxBytes) || maxBytes < 256) {
    throw new RangeError('maxBytes must be an integer of at least 256');
  }
  if (!Number.isInteger(maxFiles) || maxFiles < 1) {
    throw new RangeError('maxFiles must be a positive integer');
  }

  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const logPath = path.join(dir, fileName);
  const extension = path.extname(fileName);
  const stem = fileName.slice(0, fileName.length - extension.length);
  const olderPath = (index: number) => path.join(dir, `${stem}.${index}${extension}`);

  let fd: number | undefined = openForAppend(logPath);
  let size = fs.fstatSync(fd).size;
  let reportedFailure = false;

  function reportOnce(error: unknown): void {
    // Once only: a full disk would otherwise turn every log call into console noise.
    if (!reportedFailure) onWriteError(error);
    reportedFailure = true;
  }

  function rotate(): void {
    fs.closeSync(fd!);
    // Never keep a closed descriptor: the number could be reused by another file.
    fd = undefined;
    try {
      // Oldest first, so each rename lands on a name that was just freed.
      fs.rmSync(olderPath(maxFiles - 1), { force: true });
      for (let index = maxFiles - 2; index >= 1; index--) {
        renameIfPresent(olderPath(index), olderPath(index + 1));
      }
      if (maxFiles > 1) renameIfPresent(logPath, olderPath(1));
      else fs.rmSync(logPath, { force: true });
    } catch (error) {
      // Keep logging into the current file rather than losing entries; the next write retries.
      reportOnce(error);
    } finally {
      fd = openForAppend(logPath);
      size = fs.fstatSync(fd).size;
    }
  }

  function write(level: Level, message: string, fields?: LogFields): void {
    if (fd === undefined) return; // closed
    try {
      const line = fitLine(formatLine(clock(), level, message, fields), maxBytes);
      if (size > 0 && size + line.length > maxBytes) rotate();
      if (fd === undefined) return; // could not reopen; already reported
      fs.writeSync(fd, line);
      size += line.length;
    } catch (error) {
      reportOnce(error);
    }
  }

  return {
    path: logPath,
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    async close() {
      if (fd === undefined) return;
      const closing = fd;
      fd = undefined;
      fs.closeSync(closing);
    },
  };
}

function openForAppend(file: string): number {
  const fd = fs.openSync(file, 'a', FILE_MODE);
  // The mode above only applies to a new file; tighten one left behind by something else.
  if (process.platform !== 'win32') fs.fchmodSync(fd, FILE_MODE);
  return fd;
}

function renameIfPresent(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** `2025-06-01T10:00:00.000Z INFO message {"field":1}`, secrets masked, always one line. */
export function formatLine(time: Date, level: Level, message: string, fields?: LogFields): string {
  const text = oneLine(redactText(message, LIMITS));
  const hasFields = fields !== undefined && Object.keys(fields).length > 0;
  const json = hasFields ? ` ${JSON.stringify(redactValue(fields, LIMITS))}` : '';
  return `${time.toISOString()} ${level.toUpperCase()} ${text}${json}\n`;
}

/** A line is never split across files: one longer than a whole file is cut to fit. */
function fitLine(line: string, maxBytes: number): Buffer {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= maxBytes) return bytes;
  const marker = Buffer.from(' …[truncated]\n', 'utf8');
  let end = maxBytes - marker.length;
  // Do not cut a multi-byte character in half (continuation bytes are 0b10xxxxxx).
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return Buffer.concat([bytes.subarray(0, end), marker]);
}

/** Newlines in a message would let it forge entries that look like separate lines. */
function oneLine(text: string): string {
  return text.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}
