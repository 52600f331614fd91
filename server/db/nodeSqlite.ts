import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Adapts `node:sqlite` to the interface Kysely's `SqliteDialect` expects. Prepared statements are
 * cached by SQL text: Kysely compiles the same few shapes of query over and over, and preparing
 * is the dominant cost of a small query.
 */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, SqliteStatement>();
  readonly #tupleStatements = new Map<string, StatementSync>();
  static readonly #CACHE_LIMIT = 500;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  get raw(): DatabaseSync {
    return this.#db;
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.#statements.get(sql);
    if (cached) return cached;
    const statement = adaptStatement(this.#db.prepare(sql));
    if (this.#statements.size >= NodeSqliteDatabase.#CACHE_LIMIT) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    this.#statements.set(sql, statement);
    return statement;
  }

  /**
   * A statement answering each row as an array of its columns' values, in select order: for
   * reads of very many rows, where building an object per row is most of the cost.
   */
  prepareTuples(sql: string): StatementSync {
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

function adaptStatement(statement: StatementSync): SqliteStatement {
  return {
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...toSqlValues(parameters)),
    run: (parameters) => statement.run(...toSqlValues(parameters)),
    iterate: (parameters) => statement.iterate(...toSqlValues(parameters)),
  };
}
