import { CompiledQuery } from 'kysely';
import type { Db } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import type { Database } from '../db/tables.ts';
import { ChunkedInsert, upsertBuilder, type PlaceholderRows } from './chunkedInsert.ts';

/**
 * Many rows of one table written in a transaction, the way each engine takes them best.
 * SQLite: multi-row INSERTs of a chunk of rows (ChunkedInsert), in process and cheap to bind.
 * PostgreSQL: one statement per flush, binding each column as one array that `unnest` turns
 * back into rows, as the raw readings are written (rawReadingsInsert.ts): a multi-row VALUES
 * costs the server a parse and plan of thousands of parameters, and a round trip, per chunk.
 */

type ColumnOf<Table extends keyof Database> = keyof Database[Table] & string;

export interface RowsTable<Table extends keyof Database & string> {
  table: Table;
  /** The columns in the order `add` takes their values, each with its PostgreSQL type. */
  columns: readonly {
    name: ColumnOf<Table>;
    pgType: 'text' | 'bytea' | 'int4' | 'int8' | 'float8';
  }[];
  /** An upsert: a row whose `key` is stored takes the `updated` columns of the incoming one. */
  upsert?: { key: readonly ColumnOf<Table>[]; updated: readonly ColumnOf<Table>[] };
}

export interface RowsInsert {
  /** Queues one row's values in column order; answers a promise when it wrote some rows. */
  add(...values: unknown[]): Promise<void> | undefined;
  /** Writes what is queued. */
  flush(): Promise<void>;
  /** Rows written so far. */
  readonly written: number;
}

/** A writer of `spec`'s rows for one transaction; `chunkRows` is SQLite's statement size. */
export function rowsInsert<Table extends keyof Database & string>(
  trx: Db,
  spec: RowsTable<Table>,
  chunkRows: number,
): RowsInsert {
  if (engineOf(trx) === 'postgres') {
    const numeric = spec.columns.map(
      (column) => column.pgType !== 'text' && column.pgType !== 'bytea',
    );
    return new UnnestRowsInsert(trx, unnestStatement(spec), numeric);
  }
  const build = spec.upsert
    ? upsertBuilder(spec.table, spec.upsert.key, spec.upsert.updated)
    : (db: Db, rows: PlaceholderRows) => db.insertInto(spec.table).values(rows as never);
  const columns = spec.columns.map((column) => column.name);
  return new ChunkedInsert(trx, columns, chunkRows, build);
}

/** `insert into … select * from unnest($1::type[], …) [on conflict …]`, made once per table. */
function unnestStatement<Table extends keyof Database & string>(spec: RowsTable<Table>): string {
  // The names are the spec's own constants, typed as the table's columns: quoted, not bound.
  const id = (name: string) => `"${name}"`;
  const names = spec.columns.map((column) => id(column.name)).join(', ');
  const arrays = spec.columns.map((column, index) => `$${index + 1}::${column.pgType}[]`);
  const upsert = spec.upsert
    ? `on conflict (${spec.upsert.key.map(id).join(', ')}) do update set ` +
      spec.upsert.updated.map((column) => `${id(column)} = excluded.${id(column)}`).join(', ')
    : '';
  return `insert into ${id(spec.table)} (${names}) select * from unnest(${arrays.join(', ')}) ${upsert}`;
}

class UnnestRowsInsert implements RowsInsert {
  readonly #trx: Db;
  readonly #statement: string;
  readonly #width: number;
  /** Per column: bound as a numeric array literal made here (else as pg makes arrays). */
  readonly #numeric: readonly boolean[];
  #columns: unknown[][];
  #written = 0;

  constructor(trx: Db, statement: string, numeric: readonly boolean[]) {
    this.#trx = trx;
    this.#statement = statement;
    this.#width = numeric.length;
    this.#numeric = numeric;
    this.#columns = this.#emptyColumns();
  }

  get written(): number {
    return this.#written;
  }

  add(...values: unknown[]): undefined {
    for (let index = 0; index < this.#width; index++) this.#columns[index]!.push(values[index]);
    return undefined;
  }

  async flush(): Promise<void> {
    const rows = this.#columns[0]!.length;
    if (rows === 0) return;
    const parameters = this.#columns.map((values, index) =>
      this.#numeric[index] ? numericArrayLiteral(values as (number | null)[]) : values,
    );
    this.#columns = this.#emptyColumns();
    await this.#trx.executeQuery(CompiledQuery.raw(this.#statement, parameters));
    this.#written += rows;
  }

  #emptyColumns(): unknown[][] {
    return Array.from({ length: this.#width }, () => []);
  }
}

/**
 * A PostgreSQL array literal of numbers, `{1,2.5,NULL}`: what pg would send for the array,
 * each number written by its `toString` as pg writes it (the shortest text that reads back to
 * the same double), made in one join instead of pg's escaping of every element.
 */
export function numericArrayLiteral(values: ArrayLike<number | null>): string {
  let literal = '{';
  for (let index = 0; index < values.length; index++) {
    if (index > 0) literal += ',';
    const value = values[index];
    literal += value === null ? 'NULL' : String(value);
  }
  return literal + '}';
}
