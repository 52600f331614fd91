import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import { ChunkedInsert, upsertBuilder } from './chunkedInsert.ts';
import { numericArrayLiteral } from './rowsInsert.ts';

/**
 * The raw readings' upsert (a reading at a stored time replaces it), one sensor's batch at a
 * time, in the writer's transaction.
 *
 * SQLite: multi-row INSERTs of READING_CHUNK_ROWS rows, compiled once per chunk size; binding is
 * cheap there and the statements are in-process.
 * PostgreSQL: one statement per batch, whatever its size, binding the times and values as two
 * arrays that `unnest` turns back into rows. A multi-row VALUES of hundreds of rows costs the
 * server a parse and plan of thousands of parameters per chunk, and a round trip each; the
 * arrays are parsed as two values and planned once per batch.
 */
export interface RawReadingsInsert {
  /**
   * Upserts one sensor's readings (times strictly increasing, checked by the caller).
   * `replacesStored`: whether some of those times are stored already (the caller has read them,
   * under the sensor's lock); when none is, PostgreSQL inserts them without ON CONFLICT.
   */
  write(
    sensorUuid: string,
    takenAt: ArrayLike<number>,
    values: ArrayLike<number>,
    replacesStored: boolean,
  ): Promise<void>;
  /** Readings written so far. */
  readonly written: number;
}

const READING_CHUNK_ROWS = 500;
const READING_COLUMNS = ['sensor_uuid', 'taken_at', 'value'] as const;

export function rawReadingsInsert(trx: Db): RawReadingsInsert {
  return engineOf(trx) === 'postgres' ? new UnnestInsert(trx) : new SqliteChunkedInsert(trx);
}

const upsertReadings = upsertBuilder('readings', ['sensor_uuid', 'taken_at'], ['value']);

class SqliteChunkedInsert implements RawReadingsInsert {
  readonly #insert: ChunkedInsert;

  constructor(trx: Db) {
    this.#insert = new ChunkedInsert(trx, READING_COLUMNS, READING_CHUNK_ROWS, upsertReadings);
  }

  get written(): number {
    return this.#insert.written;
  }

  async write(
    sensorUuid: string,
    takenAt: ArrayLike<number>,
    values: ArrayLike<number>,
  ): Promise<void> {
    // Always the upsert: SQLite's costs next to nothing more than a plain insert.
    for (let index = 0; index < takenAt.length; index++) {
      const pending = this.#insert.add(sensorUuid, takenAt[index], values[index]);
      if (pending) await pending;
    }
    await this.#insert.flush();
  }
}

class UnnestInsert implements RawReadingsInsert {
  readonly #trx: Db;
  #written = 0;

  constructor(trx: Db) {
    this.#trx = trx;
  }

  get written(): number {
    return this.#written;
  }

  async write(
    sensorUuid: string,
    takenAt: ArrayLike<number>,
    values: ArrayLike<number>,
    replacesStored: boolean,
  ): Promise<void> {
    if (takenAt.length === 0) return;
    // Array literals made here (a typed array would go to pg as bytes).
    const times = numericArrayLiteral(takenAt);
    const numbers = numericArrayLiteral(values);
    // ON CONFLICT makes every row a speculative insertion, a cost of its own per row: only
    // when some time is stored already.
    const replacing = replacesStored
      ? sql`on conflict (sensor_uuid, taken_at) do update set value = excluded.value`
      : sql``;
    await sql`insert into readings (sensor_uuid, taken_at, value)
      select ${sensorUuid}::text, reading.taken_at, reading.value
      from unnest(${times}::int8[], ${numbers}::float8[]) as reading(taken_at, value)
      ${replacing}`.execute(this.#trx);
    this.#written += takenAt.length;
  }
}
