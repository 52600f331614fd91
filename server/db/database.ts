import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import type pg from 'pg';
import { engineOf, engineOfLocation, type Engine } from './engine.ts';
import { registerDirectConnection, registerDirectPool } from './fastQuery.ts';
import { migrationProvider } from './migrations/index.ts';
import { NodeSqliteDatabase, type StatementObserver } from './nodeSqlite.ts';
import { ADVISORY_LOCKS, withAdvisoryLock } from './advisoryLocks.ts';
import { postgresKysely, postgresPool } from './postgres.ts';
import { ReadingPartitions } from './readingPartitions.ts';
import { SharedWrites, type SharedWritesOptions } from './sharedWrites.ts';
import type { Database } from './tables.ts';
import { WriteGeneration } from './writeGeneration.ts';

export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  engine: Engine;
  /** Moves whenever a statement that may write runs. */
  writes: WriteGeneration;
  /**
   * The connection pool's state, for an engine that has one (PostgreSQL); SQLite has a single
   * connection and leaves this out.
   */
  poolStats?: () => PoolStats;
  /**
   * On PostgreSQL, where several server instances may share the database: its URL and pool,
   * for what needs a connection of its own (the simulator's lock).
   */
  shared?: {
    url: string;
    pool: pg.Pool;
    /** Brings the write generation up to every write committed so far (sharedWrites.ts). */
    catchUp(): Promise<void>;
  };
  /**
   * Runs `work` while no other instance on the database runs its own (PostgreSQL: under an
   * advisory lock, as migrations do): seeding at start, so instances starting together on an
   * empty database do not seed twice. On SQLite, with one process, just runs it.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open, idle or in use. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

export interface OpenOptions {
  /** Told of every statement (for metrics); none by default. */
  observeStatements?: StatementObserver;
  /** PostgreSQL: how other instances' writes are followed (server/db/sharedWrites.ts). */
  sharedWrites?: SharedWritesOptions;
}

/**
 * Opens the database `location` names and migrates it: a `postgres://` URL on PostgreSQL,
 * anything else (a file path, `:memory:`) on SQLite.
 */
export function openDatabase(location: string, options: OpenOptions = {}): Promise<OpenedDatabase> {
  return engineOfLocation(location) === 'postgres'
    ? openPostgresDatabase(location, options)
    : openSqliteDatabase(location, options);
}

/**
 * Connects to a PostgreSQL database (which must exist) and migrates it. Several server instances
 * may share it: they migrate one at a time (the others then find nothing left to do), tell one
 * another of their writes, and follow one another's.
 */
export async function openPostgresDatabase(
  url: string,
  options: OpenOptions = {},
): Promise<OpenedDatabase> {
  const writes = new WriteGeneration();
  const pool = postgresPool(url);
  const instanceId = randomUUID();
  const db = postgresKysely(
    pool,
    [writes, new ReadingPartitions()],
    instanceId,
    options.observeStatements,
  );
  registerDirectPool(db, pool);
  const exclusively = <T>(work: () => Promise<T>) =>
    withAdvisoryLock(pool, ADVISORY_LOCKS.startup, work);
  const sharedWrites = new SharedWrites(url, pool, writes, instanceId, options.sharedWrites);
  try {
    await exclusively(() => migrate(db, 'postgres'));
    await sharedWrites.start();
  } catch (error) {
    await sharedWrites.close();
    await db.destroy();
    throw error;
  }
  return {
    db,
    engine: 'postgres',
    writes,
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    shared: { url, pool, catchUp: () => sharedWrites.catchUp() },
    exclusively,
    close: async () => {
      await sharedWrites.close();
      await db.destroy();
    },
  };
}

/** Opens (creating if needed) an SQLite database file, or `:memory:`, and migrates it. */
export async function openSqliteDatabase(
  path: string,
  options: OpenOptions = {},
): Promise<OpenedDatabase> {
  if (path !== ':memory:') prepareDatabaseFile(path);
  const sqlite = new DatabaseSync(path);
  if (path !== ':memory:') sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec('PRAGMA synchronous = NORMAL');
  sqlite.exec('PRAGMA busy_timeout = 5000');
  // SQLite's own lower() folds ASCII only, so "Über" would never match a search for "über";
  // PostgreSQL's folds all of Unicode. This makes both engines answer alike.
  sqlite.function('lower', { deterministic: true }, (text) =>
    typeof text === 'string' ? text.toLowerCase() : text,
  );

  const connection = new NodeSqliteDatabase(sqlite, options.observeStatements);
  const writes = new WriteGeneration();
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: connection }),
    plugins: [writes],
  });
  registerDirectConnection(db, connection);
  await migrate(db, 'sqlite');
  return {
    db,
    engine: 'sqlite',
    writes,
    exclusively: (work) => work(),
    close: () => db.destroy(),
  };
}

/**
 * The database holds password hashes, sessions and plants' data: only its owner may read it.
 * A folder made for it is 0700 (an existing one is the user's to decide); the file is created
 * 0600, or tightened to it, and SQLite gives its -wal and -shm files the database's mode.
 */
function prepareDatabaseFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
}

export function migratorOf(db: Db, engine: Engine = engineOf(db)): Migrator {
  return new Migrator({ db, provider: migrationProvider(engine) });
}

async function migrate(db: Db, engine: Engine): Promise<void> {
  const migrator = migratorOf(db, engine);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}

/**
 * Runs `work` in a transaction, or inside the caller's when `db` already is one, so store
 * functions compose (the demo seed creates a plant inside its own transaction).
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
