import { SelectQueryNode, type Compilable, type CompiledQuery } from 'kysely';
import type pg from 'pg';
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
 *
 * On PostgreSQL a select outside a transaction of ours goes straight to the pool (`pg` answers
 * the same rows Kysely would hand on; writes and transactions keep Kysely's path, where they are
 * notified and counted). The queries of a fixed shape (`reusableQuery`, `fixedShape`) run as
 * named prepared statements: PostgreSQL then parses each once per connection and can keep its
 * plan, which was most of its work for a small read.
 */

const directConnections = new WeakMap<Db, NodeSqliteDatabase>();
const directPools = new WeakMap<Db, pg.Pool>();

/** Called once by the SQLite opener for its root Kysely instance. */
export function registerDirectConnection(db: Db, sqlite: NodeSqliteDatabase): void {
  directConnections.set(db, sqlite);
}

/** Called once by the PostgreSQL opener for its root Kysely instance. */
export function registerDirectPool(db: Db, pool: pg.Pool): void {
  directPools.set(db, pool);
}

/**
 * Statement names by SQL text. Each connection keeps every statement it prepared for as long as
 * it lives, so only fixed shapes are named, and at most this many of them.
 */
const statementNames = new Map<string, string>();
const MAX_NAMED_STATEMENTS = 256;

/** Marks `query`'s SQL as one of the few fixed shapes worth preparing (see above). */
export function fixedShape<Row>(query: CompiledQuery<Row>): CompiledQuery<Row> {
  if (!statementNames.has(query.sql) && statementNames.size < MAX_NAMED_STATEMENTS) {
    statementNames.set(query.sql, `plantdesk_read_${statementNames.size}`);
  }
  return query;
}

/** The pool to read `db` through directly: PostgreSQL's, outside a transaction of ours. */
export function directPoolOf(db: Db): pg.Pool | undefined {
  return db.isTransaction ? undefined : directPools.get(db);
}

function directPoolFor(db: Db, query: CompiledQuery): pg.Pool | undefined {
  return SelectQueryNode.is(query.query) ? directPoolOf(db) : undefined;
}

const statementOf = (query: CompiledQuery) => ({
  text: query.sql,
  values: [...query.parameters],
  name: statementNames.get(query.sql),
});

export function rowsOf<Row>(db: Db, query: CompiledQuery<Row>): Promise<Row[]> {
  const sqlite = db.isTransaction ? undefined : directConnections.get(db);
  if (sqlite && !sqlite.raw.isTransaction) {
    try {
      return Promise.resolve(sqlite.allRows(query.sql, query.parameters) as Row[]);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const pool = directPoolFor(db, query);
  if (pool) {
    return pool.query(statementOf(query)).then((result) => result.rows as Row[]);
  }
  return db.executeQuery(query).then((result) => result.rows);
}

/**
 * The rows as arrays of their columns' values, in the query's select order: the same as
 * `rowsOf`, for reads of so many rows that building an object for each would dominate.
 */
export function tuplesOf(db: Db, query: CompiledQuery): Promise<unknown[][]> {
  try {
    const rows = tuplesNow(db, query);
    if (rows) return Promise.resolve(rows);
  } catch (error) {
    return Promise.reject(error);
  }
  const pool = directPoolFor(db, query);
  if (pool) {
    return pool
      .query<unknown[]>({ ...statementOf(query), rowMode: 'array' })
      .then((result) => result.rows);
  }
  return db
    .executeQuery(query)
    .then((result) => result.rows.map((row) => Object.values(row as object)));
}

/**
 * `tuplesOf`'s rows at once where SQLite answers them on its own connection (see above), else
 * undefined: a caller that can go on synchronously then spends no promise and tick on them.
 */
export function tuplesNow(db: Db, query: CompiledQuery): unknown[][] | undefined {
  const sqlite = db.isTransaction ? undefined : directConnections.get(db);
  if (!sqlite || sqlite.raw.isTransaction) return undefined;
  return sqlite.allTuples(query.sql, query.parameters);
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
      template = { query: fixedShape(query), slots };
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
