import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database.ts';
import type { NodeSqliteDatabase } from './nodeSqlite.ts';

/**
 * The hot read paths. Two costs dominate a small query here, and neither is SQLite's:
 * Kysely building and compiling it, and the promise machinery of its single-connection mutex.
 * `reusableQuery` compiles a fixed-shape query once; `rowsOf` runs a compiled query directly on
 * the `node:sqlite` connection when that is safe, and through Kysely otherwise.
 *
 * Safe means: not inside a transaction of ours, and no transaction open on the connection.
 * `node:sqlite` runs a statement to completion synchronously, so outside a transaction a read
 * sees only committed data, exactly as it would after waiting for the mutex; while another
 * request's transaction is open (it spans awaits), the read waits for it through Kysely.
 * On PostgreSQL there is no direct path and every query goes through Kysely.
 */

const directConnections = new WeakMap<Db, NodeSqliteDatabase>();

/** Called once by the SQLite opener for its root Kysely instance. */
export function registerDirectConnection(db: Db, sqlite: NodeSqliteDatabase): void {
  directConnections.set(db, sqlite);
}

export function rowsOf<Row>(db: Db, query: CompiledQuery<Row>): Promise<Row[]> {
  const sqlite = db.isTransaction ? undefined : directConnections.get(db);
  if (sqlite && !sqlite.raw.isTransaction) {
    try {
      return Promise.resolve(sqlite.prepare(query.sql).all(query.parameters) as Row[]);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return db.executeQuery(query).then((result) => result.rows);
}

/**
 * The rows as arrays of their columns' values, in the query's select order: the same as
 * `rowsOf`, for reads of so many rows that building an object for each would dominate.
 */
export function tuplesOf(db: Db, query: CompiledQuery): Promise<unknown[][]> {
  const sqlite = db.isTransaction ? undefined : directConnections.get(db);
  if (sqlite && !sqlite.raw.isTransaction) {
    try {
      return Promise.resolve(sqlite.allTuples(query.sql, query.parameters));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return db
    .executeQuery(query)
    .then((result) => result.rows.map((row) => Object.values(row as object)));
}

/**
 * A query whose shape never changes, compiled once per database handle; each run supplies new
 * values for the builder's arguments. The builder receives stand-ins for its arguments and must
 * use each of them only as a bound value (not to choose the query's shape).
 */
export function reusableQuery<Args extends readonly string[], Row>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<Row[]> {
  const templates = new WeakMap<Db, { query: CompiledQuery<Row>; slots: number[] }>();
  return (db, ...args) => {
    let template = templates.get(db);
    if (!template) {
      const standIns = args.map((_, index) => `\u0000argument-${index}\u0000`);
      const query = build(db, ...(standIns as unknown as Args)).compile();
      const slots = query.parameters.map((value) => standIns.indexOf(value as string));
      if (standIns.some((standIn) => !query.parameters.includes(standIn))) {
        throw new Error('reusableQuery: every argument must be used as a bound value');
      }
      template = { query, slots };
      templates.set(db, template);
    }
    const { query, slots } = template;
    const parameters = query.parameters.map((value, index) => {
      const slot = slots[index]!;
      return slot === -1 ? value : args[slot];
    });
    return rowsOf(db, { ...query, parameters });
  };
}
