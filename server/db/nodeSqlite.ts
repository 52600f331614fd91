import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Told of every statement run, with how long SQLite took (seconds) and whether it failed. */
export type StatementObserver = (kind: 'read' | 'write', seconds: number, failed: boolean) => void;

/**
 * Adapts `node:sqlite` to the interface Kysely's `SqliteDialect` expects. Prepared statements are
 * cached by SQL text: Kysely compiles the same few shapes of query over and over, and preparing
 * is the dominant cost of a small query.
 */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, SqliteStatement>();
  readonly #tupleStatements = new Map<string, StatementSync>();
  readonly #rowMakers = new WeakMap<StatementSync, RowMaker>();
  readonly #observe: StatementObserver | undefined;
  static readonly #CACHE_LIMIT = 500;

  /** `observe` (metrics) wraps each run; without it statements run bare, at no cost. */
  constructor(db: DatabaseSync, observe?: StatementObserver) {
    this.#db = db;
    this.#observe = observe;
  }

  get raw(): DatabaseSync {
    return this.#db;
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.#statements.get(sql);
    if (cached) return cached;
    const statement = adaptStatement(this.#db.prepare(sql), this.#observe);
    if (this.#statements.size >= NodeSqliteDatabase.#CACHE_LIMIT) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    this.#statements.set(sql, statement);
    return statement;
  }

  /**
   * Every row as an array of its columns' values, in select order: for reads of very many rows,
   * where building an object per row is most of the cost.
   */
  allTuples(sql: string, parameters: ReadonlyArray<unknown>): unknown[][] {
    const statement = this.#prepareTuples(sql);
    const run = () => statement.all(...toSqlValues(parameters)) as unknown as unknown[][];
    return this.#observe ? timed(this.#observe, 'read', run) : run();
  }

  /**
   * Every row as an object keyed by column, as `prepare(sql).all` answers, but read as arrays
   * and made into objects of one shape per statement here: `node:sqlite` makes each row a
   * dictionary object of its own, naming every column again, which cost a page of 20 plants
   * about a quarter of its read (and the rows' every later field read).
   */
  allRows(sql: string, parameters: ReadonlyArray<unknown>): Record<string, unknown>[] {
    const statement = this.#prepareTuples(sql);
    let make = this.#rowMakers.get(statement);
    if (!make) this.#rowMakers.set(statement, (make = rowMakerOf(statement)));
    const tuples = this.allTuples(sql, parameters);
    const rows = new Array<Record<string, unknown>>(tuples.length);
    for (let index = 0; index < tuples.length; index++) rows[index] = make(tuples[index]!);
    return rows;
  }

  #prepareTuples(sql: string): StatementSync {
    const cached = this.#tupleStatements.get(sql);
    if (cached) return cached;
    const statement = this.#db.prepare(sql);
    statement.setReturnArrays(true);
    if (this.#tupleStatements.size >= NodeSqliteDatabase.#CACHE_LIMIT) {
      const oldest = this.#tupleStatements.keys().next().value;
      if (oldest !== undefined) this.#tupleStatements.delete(oldest);
    }
    this.#tupleStatements.set(sql, statement);
    return statement;
  }

  close(): void {
    this.#statements.clear();
    this.#tupleStatements.clear();
    if (this.#db.isOpen) this.#db.close();
  }
}

type RowMaker = (tuple: readonly unknown[]) => Record<string, unknown>;

/**
 * The row object of a tuple, keyed by the statement's column names: one object literal, so every
 * row of the statement has one shape (fast properties). As in `node:sqlite`'s rows, a later
 * column of the same name wins, in the first one's place. Unlike them, the rows have the usual
 * prototype, as `pg`'s rows do (a null-prototype literal is a dictionary object again): a name
 * `__proto__`, which a literal would take as the prototype, is defined one key at a time instead.
 */
function rowMakerOf(statement: StatementSync): RowMaker {
  const names = statement.columns().map((column) => column.name);
  if (names.includes('__proto__')) {
    return (tuple) => {
      const row: Record<string, unknown> = {};
      names.forEach((name, index) =>
        Object.defineProperty(row, name, {
          value: tuple[index],
          enumerable: true,
          writable: true,
          configurable: true,
        }),
      );
      return row;
    };
  }
  const last = new Map(names.map((name, index) => [name, index]));
  const fields = [...last].map(([name, index]) => `${JSON.stringify(name)}: tuple[${index}]`);
  return new Function('tuple', `return { ${fields.join(', ')} };`) as RowMaker;
}

type SqlValue = null | number | bigint | string | NodeJS.ArrayBufferView;

export function toSqlValues(parameters: ReadonlyArray<unknown>): SqlValue[] {
  return parameters.map((value) => {
    if (value === undefined) return null;
    if (typeof value === 'boolean') return value ? 1 : 0;
    return value as SqlValue;
  });
}

function adaptStatement(statement: StatementSync, observe?: StatementObserver): SqliteStatement {
  const reader = statement.columns().length > 0;
  const adapted: SqliteStatement = {
    reader,
    all: (parameters) => statement.all(...toSqlValues(parameters)),
    run: (parameters) => statement.run(...toSqlValues(parameters)),
    iterate: (parameters) => statement.iterate(...toSqlValues(parameters)),
  };
  if (!observe) return adapted;
  const kind = reader ? 'read' : 'write';
  return {
    ...adapted,
    all: (parameters) => timed(observe, kind, () => adapted.all(parameters)),
    run: (parameters) => timed(observe, kind, () => adapted.run(parameters)),
    // Rows come lazily, after this returns: counted, with the time to start only.
    iterate: (parameters) => timed(observe, kind, () => adapted.iterate(parameters)),
  };
}

/** `node:sqlite` runs a statement synchronously, so the wall time around it is SQLite's own. */
function timed<T>(observe: StatementObserver, kind: 'read' | 'write', run: () => T): T {
  const started = performance.now();
  let failed = true;
  try {
    const result = run();
    failed = false;
    return result;
  } finally {
    observe(kind, (performance.now() - started) / 1000, failed);
  }
}
