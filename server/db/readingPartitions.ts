import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { Db } from './database.ts';
import { readingMonthsBetween, type ReadingMonth } from './readingMonths.ts';

/**
 * On PostgreSQL `readings` is partitioned by month of `taken_at` (migration 0008), and has no
 * DEFAULT partition: a reading for a month without its partition fails the insert ("no
 * partition of relation found for row"), so every writer makes sure the months it writes exist
 * first. A DEFAULT partition would hide a missed month instead: its rows would escape retention
 * (which drops whole months), and creating that month's partition later would have to scan the
 * default partition and fail if any of its rows belonged there.
 *
 * The months known to exist are remembered per database (this object rides on the Kysely
 * instance as a plugin, so every transaction of that database finds it): a write to a known
 * month costs nothing. Another instance of the server may create the same month at the same
 * time: `create table if not exists` does not exclude that race, so its duplicate error counts
 * as success. A month dropped by another instance's retention is not known here; writing to
 * it is refused by then anyway (older than the horizon), and a restart forgets.
 */
export class ReadingPartitions implements KyselyPlugin {
  readonly #known = new Set<number>();

  knows(month: ReadingMonth): boolean {
    return this.#known.has(month.startMs);
  }

  remember(month: ReadingMonth): void {
    this.#known.add(month.startMs);
  }

  forget(month: ReadingMonth): void {
    this.#known.delete(month.startMs);
  }

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/** The database's partition bookkeeping; undefined on SQLite, whose `readings` is one table. */
export function readingPartitionsOf(db: Db): ReadingPartitions | undefined {
  return db
    .getExecutor()
    .plugins.find((plugin): plugin is ReadingPartitions => plugin instanceof ReadingPartitions);
}

/**
 * Makes sure a partition exists for every month from `fromMs` to `toMs` (PostgreSQL; nothing
 * on SQLite). Best called outside a transaction: creating a partition locks `readings` whole
 * until its transaction ends. Inside one it still works, in a savepoint.
 */
export async function ensureReadingPartitions(db: Db, fromMs: number, toMs: number): Promise<void> {
  const partitions = readingPartitionsOf(db);
  if (!partitions) return;
  for (const month of readingMonthsBetween(fromMs, toMs)) {
    if (partitions.knows(month)) continue;
    if (!(await partitionExists(db, month))) await createPartition(db, month);
    partitions.remember(month);
  }
}

/** A lookup that takes no lock, unlike `create table if not exists` on a partition. */
async function partitionExists(db: Db, month: ReadingMonth): Promise<boolean> {
  const { rows } = await sql<{ found: string | null }>`
    select to_regclass(${month.partition}) as found`.execute(db);
  return rows[0]?.found != null;
}

const DUPLICATE_TABLE = '42P07';
const UNIQUE_VIOLATION = '23505';

function isDuplicate(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === DUPLICATE_TABLE || code === UNIQUE_VIOLATION;
}

async function createPartition(db: Db, month: ReadingMonth): Promise<void> {
  // DDL takes no bound parameters: the bounds are literals, the name an identifier.
  const create = sql`create table if not exists ${sql.id(month.partition)}
    partition of readings
    for values from (${sql.lit(month.startMs)}) to (${sql.lit(month.endMs)})`;
  if (!db.isTransaction) {
    try {
      await create.execute(db);
    } catch (error) {
      if (!isDuplicate(error)) throw error;
    }
    return;
  }
  // An error would abort the caller's whole transaction; the savepoint confines it.
  await sql`savepoint reading_partition`.execute(db);
  try {
    await create.execute(db);
    await sql`release savepoint reading_partition`.execute(db);
  } catch (error) {
    await sql`rollback to savepoint reading_partition`.execute(db);
    if (!isDuplicate(error)) throw error;
  }
}
