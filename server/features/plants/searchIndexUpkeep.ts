import { sql, type CompiledQuery } from 'kysely';
import type { Db } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import { rowsOf } from '../../db/fastQuery.ts';

/**
 * Keeps SQLite's trigram search table (migration 0007) merged. FTS5 files each write transaction
 * as a b-tree of its own and merges them only level by level, so plants added one request at a
 * time leave many small b-trees that every search reads, each with its share of the common
 * trigrams' long lists: 2,000 plants so added made `site-01234` cost about 180 µs of CPU in
 * SQLite, against about 20 µs merged into one (README, Performance).
 *
 * After plant writes (and once at start), when writing pauses for `delayMs`, the table is merged
 * in rounds of a few pages ('merge' with a negative count merges across levels), each round its
 * own statement (run as `rowsOf` runs reads: never inside another request's transaction, and
 * without moving the write generation, since merging changes no answer) and a turn of the event
 * loop between rounds, so requests are not held up by one long statement. It
 * stops when a round finds nothing left to merge. Merging changes how FTS5 stores the index, never
 * what it finds. PostgreSQL has no such table: there this does nothing.
 */
export class SearchIndexUpkeep {
  readonly #db: Db;
  readonly #delayMs: number;
  readonly #active: boolean;
  // Compiled once: compiling raw SQL through Kysely's plugins counts as a write.
  readonly #mergeRound: CompiledQuery;
  readonly #totalChangesQuery: CompiledQuery<{ n: number }>;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(db: Db, delayMs = 500) {
    this.#db = db;
    this.#delayMs = delayMs;
    this.#active = engineOf(db) === 'sqlite';
    this.#mergeRound = MERGE_ROUND.compile(db);
    this.#totalChangesQuery = TOTAL_CHANGES.compile(db);
  }

  /** Plants, their names or external ids changed: merge once writing pauses. */
  noteWrite(): void {
    if (!this.#active || this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running ??= this.#merge().finally(() => (this.#running = undefined));
    }, this.#delayMs);
    // A pending merge never keeps the process alive.
    this.#timer.unref();
  }

  /** Resolves once no merge is pending or running (tests). */
  async settled(): Promise<void> {
    while (this.#timer || this.#running) {
      await (this.#running ?? new Promise((resolve) => setTimeout(resolve, this.#delayMs)));
    }
  }

  /** Before the database closes: no new round starts, the current one is awaited. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  async #merge(): Promise<void> {
    try {
      while (!this.#stopped) {
        // FTS5's documented test: a round that changes fewer than 2 rows found nothing to merge.
        const before = await this.#totalChanges();
        await rowsOf(this.#db, this.#mergeRound);
        if ((await this.#totalChanges()) - before < 2) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch {
      // Upkeep only: the search answers the same unmerged, and the next write tries again.
    }
  }

  async #totalChanges(): Promise<number> {
    const [row] = await rowsOf(this.#db, this.#totalChangesQuery);
    return Number(row?.n ?? 0);
  }
}

/** About 0.5 ms of merging each (16 rounds for 2,000 plants' 6,000 texts). */
const PAGES_PER_ROUND = 64;
const MERGE_ROUND = sql`insert into plant_search (plant_search, rank) values ('merge', ${-PAGES_PER_ROUND})`;
const TOTAL_CHANGES = sql<{ n: number }>`select total_changes() as n`;
