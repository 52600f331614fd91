import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import { coalescedRows } from '../../db/coalescedStatements.ts';
import { rowsOf } from '../../db/fastQuery.ts';
import { templateQuery } from '../../db/queryTemplates.ts';
import { revokedTokensOf } from '../../auth/familyRevocations.ts';
import { keptPlantCount } from './plantList.ts';
import type { PlantRow } from '../../db/tables.ts';
import {
  answersFromMemory,
  RememberedPlants,
  type LoadedPlant,
  type PlantSortProperty,
  type RememberedPageQuery,
} from './rememberedPlants.ts';

/**
 * `GET /plants` answered from each organization's plants kept in memory (rememberedPlants.ts)
 * while they are unchanged. Read from the database, a search among 2,000 plants cost 61–70 µs
 * of the server's CPU on PostgreSQL (most of it the driver decoding each row's 15 columns) and
 * as much again of the database's, an unsearched page 190–220 µs; from memory, only the page's
 * JSON is put together.
 *
 * The plants are kept with the organization's version (migration 0021: moved by triggers with
 * every write to its plants or their external ids, on any instance) and the write generation
 * they were last known current at. A request is answered from them:
 * - when nothing was written since that generation: on SQLite the generation is this process's
 *   own; on PostgreSQL it is first caught up with every write committed anywhere (the snapshot
 *   read every other route makes, sharedWrites.ts, shared by concurrent requests), and the
 *   caller's sign-in checked as other routes check it;
 * - else when one statement of one row finds the version unchanged. It also checks the sign-in
 *   on PostgreSQL (sessionInStatement.ts), and concurrent requests' statements go together
 *   (coalescedStatements.ts). While writes keep coming (ingestion), requests ask it at once
 *   instead of catching up first, as answersAsOfArrival.ts does.
 * The same version means the same plants, exactly: several instances need nothing invalidated
 * and are never stale.
 *
 * When the version moved (or the plants were never read), that request is answered from the
 * database as before, and the plants are read again in the background, one reading at a time
 * per organization. An organization whose plants change faster than they are listed is not read
 * again and again: after a reading that no request used, the next waits RELOAD_UNUSED_MS.
 */
export interface PlantDirectoryOptions {
  /**
   * Organizations with more plants (or more than `maxKeptPlants`) are answered from the
   * database, without asking their version for OVER_LIMIT_MS. 0: never remembered.
   */
  maxPlants?: number;
  /**
   * How many organizations' plants are kept, and how many plants in all (a plant costs about
   * 1.5 KB kept, with its JSON and its part of the search's index): the least recently listed
   * organizations are dropped first.
   */
  maxOrganizations?: number;
  maxKeptPlants?: number;
  /** A monotonic clock in ms (tests); default `performance.now`. */
  clockMs?: () => number;
}

export const DEFAULT_DIRECTORY_MAX_PLANTS = 10_000;
export const DEFAULT_DIRECTORY_MAX_ORGANIZATIONS = 256;
export const DEFAULT_DIRECTORY_MAX_KEPT_PLANTS = 50_000;
export const RELOAD_UNUSED_MS = 1_000;
/** An organization found over the limit is answered by the database alone this long. */
export const OVER_LIMIT_MS = 60_000;

/** What the directory found: the page, unless the caller must ask the database. */
export interface DirectoryAnswer {
  /** The page's JSON text; undefined when the plants in memory are not the current ones. */
  json: string | undefined;
  /** Whether the sign-in given was revoked (then `json` is undefined). */
  revoked: boolean;
}

interface Kept {
  plants: RememberedPlants;
  /** The write generation at which they were last known to be the current plants. */
  currentAt: number;
  used: boolean;
  loadedAt: number;
}

/** What the directory follows of the server (context.ts). */
export interface DirectoryDependencies {
  /** The write generation (writeGeneration.ts). */
  generation: () => number;
  /** On PostgreSQL: brings the generation up to every write committed anywhere. */
  catchUp?: (() => Promise<void>) | undefined;
  revocations: { isRevoked(familyId: string): Promise<boolean> };
}

/** While the generation moved this recently, the version is asked at once (see above). */
export const ASK_VERSION_FIRST_MS = 1_000;

interface VersionRow {
  version: number | null;
  plants: number | null;
  revoked?: unknown;
}

export class PlantDirectory {
  readonly #db: Db;
  readonly #dependencies: DirectoryDependencies;
  readonly #maxPlants: number;
  readonly #maxOrganizations: number;
  readonly #maxKeptPlants: number;
  /** The plants of every organization kept. */
  #keptPlants = 0;
  readonly #kept = new Map<string, Kept>();
  readonly #loading = new Map<string, Promise<void>>();
  readonly #clockMs: () => number;
  #closed = false;
  /** Organizations found with more plants than are kept, and when. */
  readonly #overLimit = new Map<string, number>();
  /** When a catch-up last found the generation moved. */
  #movedAt = -Infinity;
  /** How lists were answered, and how often plants were read (tests, diagnosis). */
  readonly counts = { fromMemory: 0, fromDatabase: 0, loads: 0 };

  constructor(db: Db, dependencies: DirectoryDependencies, options: PlantDirectoryOptions = {}) {
    this.#db = db;
    this.#dependencies = dependencies;
    this.#maxPlants = Math.min(
      options.maxPlants ?? DEFAULT_DIRECTORY_MAX_PLANTS,
      options.maxKeptPlants ?? DEFAULT_DIRECTORY_MAX_KEPT_PLANTS,
    );
    this.#maxOrganizations = options.maxOrganizations ?? DEFAULT_DIRECTORY_MAX_ORGANIZATIONS;
    this.#maxKeptPlants = options.maxKeptPlants ?? DEFAULT_DIRECTORY_MAX_KEPT_PLANTS;
    this.#clockMs = options.clockMs ?? (() => performance.now());
  }

  /** The version of the organization's plants kept, if any. */
  rememberedVersion(organization: string): number | undefined {
    return this.#kept.get(organization)?.plants.version;
  }

  /**
   * The page from memory. Undefined when the directory is off or the query is one it never
   * answers (nothing was read then, the sign-in not checked either).
   */
  async page(
    organization: string,
    query: RememberedPageQuery,
    familyId: string | undefined,
  ): Promise<DirectoryAnswer | undefined> {
    if (this.#maxPlants === 0 || !answersFromMemory(query)) return undefined;
    // Its statement would only come before the database's: one round trip more per request.
    const overLimitAt = this.#overLimit.get(organization);
    if (overLimitAt !== undefined && this.#clockMs() - overLimitAt < OVER_LIMIT_MS) {
      return undefined;
    }
    const { generation, catchUp, revocations } = this.#dependencies;
    const kept = this.#kept.get(organization);
    if (kept && (!catchUp || this.#clockMs() - this.#movedAt >= ASK_VERSION_FIRST_MS)) {
      await catchUp?.();
      if (generation() === kept.currentAt) {
        if (familyId !== undefined && (await revocations.isRevoked(familyId))) {
          return { json: undefined, revoked: true };
        }
        return { json: this.#answer(organization, kept, query), revoked: false };
      }
      if (catchUp) this.#movedAt = this.#clockMs();
    }
    const asOf = generation();
    const state = await this.#versionOf(organization, familyId);
    if (state.revoked) return { json: undefined, revoked: true };
    if (kept?.plants.version === state.version) {
      kept.currentAt = asOf;
      return { json: this.#answer(organization, kept, query), revoked: false };
    }
    if (state.plants <= this.#maxPlants) {
      this.#overLimit.delete(organization);
      this.#loadLater(organization, kept);
    } else {
      this.#forget(organization);
      if (this.#overLimit.size >= this.#maxOrganizations) this.#overLimit.clear();
      this.#overLimit.set(organization, this.#clockMs());
    }
    this.counts.fromDatabase++;
    return { json: undefined, revoked: false };
  }

  #answer(organization: string, kept: Kept, query: RememberedPageQuery): string {
    kept.used = true;
    // Most recently listed last: the first is dropped when there are too many.
    this.#kept.delete(organization);
    this.#kept.set(organization, kept);
    this.counts.fromMemory++;
    return kept.plants.pageJson(query);
  }

  /** Resolves once no reading is under way (tests; closing). */
  async settled(): Promise<void> {
    while (this.#loading.size > 0) await Promise.all(this.#loading.values());
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.settled();
    this.#kept.clear();
    this.#keptPlants = 0;
  }

  async #versionOf(organization: string, familyId: string | undefined) {
    const db = this.#db;
    const values = { organization, family: familyId };
    const statement = templateQuery(
      db,
      `plantListVersion|${familyId === undefined ? 'unchecked' : 'checked'}`,
      values,
      (v) =>
        db.selectNoFrom((eb) => [
          listVersion(db, v.organization).as('version'),
          keptPlantCount(db, v.organization).as('plants'),
          ...(familyId === undefined
            ? []
            : [eb.exists(revokedTokensOf(db, v.family!)).as('revoked')]),
        ]),
    );
    const [row] = (await (coalescedRows(db, statement) ?? rowsOf(db, statement))) as VersionRow[];
    return {
      version: Number(row?.version ?? 0),
      plants: Number(row?.plants ?? 0),
      revoked: Boolean(row?.revoked),
    };
  }

  #loadLater(organization: string, kept: Kept | undefined): void {
    if (this.#closed || this.#loading.has(organization)) return;
    if (kept && !kept.used && this.#clockMs() - kept.loadedAt < RELOAD_UNUSED_MS) return;
    const loading = this.#load(organization)
      .catch(() => {
        // The database went away (closing, a lost connection): the database answers meanwhile.
      })
      .finally(() => this.#loading.delete(organization));
    this.#loading.set(organization, loading);
  }

  async #load(organization: string): Promise<void> {
    this.counts.loads++;
    const currentAt = this.#dependencies.generation();
    const plants = await loadPlants(this.#db, organization);
    if (this.#closed || plants.size > this.#maxPlants) return;
    this.#forget(organization);
    while (
      this.#kept.size >= this.#maxOrganizations ||
      this.#keptPlants + plants.size > this.#maxKeptPlants
    ) {
      this.#forget(this.#kept.keys().next().value!);
    }
    this.#kept.set(organization, { plants, currentAt, used: false, loadedAt: this.#clockMs() });
    this.#keptPlants += plants.size;
  }

  #forget(organization: string): void {
    const kept = this.#kept.get(organization);
    if (!kept) return;
    this.#kept.delete(organization);
    this.#keptPlants -= kept.plants.size;
  }
}

/** The organization's version of its plants (migration 0021), 0 without a row. */
function listVersion(db: Db, organization: string) {
  const kept = db
    .selectFrom('plant_list_versions')
    .select('version')
    .where('organization_uuid', '=', organization);
  return sql<number>`coalesce((${kept}), 0)`;
}

type LoadedRow = PlantRow & {
  list_version: number;
  name_rank: number;
  created_rank: number;
  updated_rank: number;
  uuid_rank: number;
  lowered_name: string;
  /** JSON array of [external id, lowered] pairs. */
  external_texts: string;
};

/**
 * The organization's plants and their version, in one statement (one snapshot: the plants are
 * those of that version). The ranks order as the list's ORDER BY does (lists.ts): the same
 * expressions, so the same collation and lower().
 */
export async function loadPlants(db: Db, organization: string): Promise<RememberedPlants> {
  const externalTexts =
    engineOf(db) === 'postgres'
      ? sql<string>`(select coalesce(json_agg(json_build_array(x.external_id, lower(x.external_id))
            order by x.position), '[]')::text
          from plant_external_ids x where x.plant_uuid = p.plant_uuid)`
      : sql<string>`(select json_group_array(json_array(x.external_id, lower(x.external_id)))
          from plant_external_ids x where x.plant_uuid = p.plant_uuid)`;
  // A select built as such, read directly: raw SQL would count as a write (writeGeneration.ts).
  const query = db
    .selectFrom(db.selectNoFrom(listVersion(db, organization).as('list_version')).as('v'))
    .leftJoin('plants as p', (join) => join.on('p.organization_uuid', '=', organization))
    .selectAll('p')
    .select([
      'v.list_version',
      sql<string>`lower(p.name)`.as('lowered_name'),
      externalTexts.as('external_texts'),
      sql<number>`dense_rank() over (order by lower(p.name))`.as('name_rank'),
      sql<number>`dense_rank() over (order by p.created_at)`.as('created_rank'),
      sql<number>`dense_rank() over (order by p.updated_at)`.as('updated_rank'),
      sql<number>`dense_rank() over (order by p.plant_uuid)`.as('uuid_rank'),
    ]);
  const rows = (await rowsOf(db, query.compile())) as unknown as LoadedRow[];
  const plants = rows.filter((row) => row.plant_uuid !== null).map(loadedPlantOf);
  return new RememberedPlants(Number(rows[0]?.list_version ?? 0), plants);
}

function loadedPlantOf(row: LoadedRow): LoadedPlant {
  const {
    list_version: _version,
    name_rank,
    created_rank,
    updated_rank,
    uuid_rank,
    lowered_name,
    external_texts,
    ...plant
  } = row;
  const externalIds = JSON.parse(external_texts) as [string, string][];
  const ranks: Record<PlantSortProperty, number> = {
    name: Number(name_rank),
    createdAt: Number(created_rank),
    updatedAt: Number(updated_rank),
    plantUuid: Number(uuid_rank),
  };
  return {
    row: plant,
    ranks,
    externalIds: externalIds.map(([externalId]) => externalId),
    loweredTexts: [lowered_name, ...externalIds.map(([, lowered]) => lowered)],
  };
}
