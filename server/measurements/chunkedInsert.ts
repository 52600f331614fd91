import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/tables.ts';

/** Placeholder rows: column name → a distinct number, so the bound order can be checked. */
export type PlaceholderRows = Record<string, number>[];

/**
 * Many rows written as multi-row INSERTs, a chunk at a time. Building and compiling a Kysely
 * query of hundreds of rows costs more than the database's work on it, so each chunk size is
 * compiled once (per ChunkedInsert, which lives for one transaction) and run with fresh values.
 *
 * `build` makes the statement from placeholder rows; its parameters must come out row by row,
 * column by column, as a plain `values([...])` binds them (whatever its ON CONFLICT clause).
 * That is checked once per chunk size, so a statement of another shape fails loudly.
 */
export class ChunkedInsert {
  readonly #db: Db;
  readonly #columns: readonly string[];
  readonly #chunkRows: number;
  readonly #build: (db: Db, rows: PlaceholderRows) => Compilable<unknown>;
  readonly #statements = new Map<number, CompiledQuery>();
  #pending: unknown[] = [];
  #written = 0;

  constructor(
    db: Db,
    columns: readonly string[],
    chunkRows: number,
    build: (db: Db, rows: PlaceholderRows) => Compilable<unknown>,
  ) {
    this.#db = db;
    this.#columns = columns;
    this.#chunkRows = chunkRows;
    this.#build = build;
  }

  /** Rows written so far. */
  get written(): number {
    return this.#written;
  }

  /** Queues one row's values in column order; writes a chunk when one is full. */
  add(...values: unknown[]): Promise<void> | undefined {
    for (const value of values) this.#pending.push(value);
    return this.#pending.length >= this.#chunkRows * this.#columns.length
      ? this.flush()
      : undefined;
  }

  /** Writes what is queued. */
  async flush(): Promise<void> {
    const rows = this.#pending.length / this.#columns.length;
    if (rows === 0) return;
    const parameters = this.#pending;
    this.#pending = [];
    await this.#db.executeQuery({ ...this.#statementFor(rows), parameters });
    this.#written += rows;
  }

  #statementFor(rows: number): CompiledQuery {
    let statement = this.#statements.get(rows);
    if (statement) return statement;
    const width = this.#columns.length;
    const placeholders = Array.from({ length: rows }, (_, row) =>
      Object.fromEntries(this.#columns.map((column, index) => [column, row * width + index])),
    );
    statement = this.#build(this.#db, placeholders).compile();
    const inOrder =
      statement.parameters.length === rows * width &&
      statement.parameters.every((value, index) => value === index);
    if (!inOrder) throw new Error('ChunkedInsert: the statement does not bind its rows in order');
    this.#statements.set(rows, statement);
    return statement;
  }
}

/**
 * A `build` for ChunkedInsert: INSERT INTO `table`, and a row whose `key` is already there gets
 * the `updated` columns of the incoming one.
 */
export function upsertBuilder<Table extends keyof Database & string>(
  table: Table,
  key: readonly (keyof Database[Table] & string)[],
  updated: readonly (keyof Database[Table] & string)[],
): (db: Db, rows: PlaceholderRows) => Compilable<unknown> {
  // Placeholder rows are numbers standing for the values bound at run time; the columns are
  // checked against the table's above, which the query builder cannot follow through generics.
  return (db, rows) =>
    db
      .insertInto(table)
      .values(rows as never)
      .onConflict((conflict) =>
        conflict
          .columns(key as never)
          .doUpdateSet(
            (eb) =>
              Object.fromEntries(
                updated.map((column) => [column, eb.ref(`excluded.${column}` as never)]),
              ) as never,
          ),
      );
}
