import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { YearReadings } from './yearReadings.ts';

/**
 * The floor under any readings store on this machine: the same rows written by `node:sqlite`
 * alone, into a fresh database file beside the store's with the server's journal settings
 * (WAL, synchronous NORMAL), a plain table without keys or indexes, one prepared INSERT per row
 * and a single transaction. No validation, no rollups, no query builder. The file is removed
 * afterwards.
 */
export function bareInsert(
  dir: string,
  sensorUuids: readonly string[],
  year: YearReadings,
): { rows: number; seconds: number } {
  const file = join(dir, 'bare.db');
  const database = new DatabaseSync(file);
  try {
    database.exec('PRAGMA journal_mode = WAL');
    database.exec('PRAGMA synchronous = NORMAL');
    database.exec('CREATE TABLE readings (sensor TEXT, t INTEGER, v REAL)');
    const insert = database.prepare('INSERT INTO readings (sensor, t, v) VALUES (?, ?, ?)');
    let rows = 0;
    const started = performance.now();
    database.exec('BEGIN');
    for (const day of year) {
      for (const [index, { takenAt, values }] of day.entries()) {
        const sensor = sensorUuids[index]!;
        for (let reading = 0; reading < takenAt.length; reading++) {
          insert.run(sensor, takenAt[reading]!, values[reading]!);
        }
        rows += takenAt.length;
      }
    }
    database.exec('COMMIT');
    return { rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    database.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
}
