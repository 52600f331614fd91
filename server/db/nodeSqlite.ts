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
