import type { SortOrder } from '../../../api/index.ts';
import { pageMetadata } from '../../db/lists.ts';
import type { PlantRow } from '../../db/tables.ts';
import { toPlant } from './plantStore.ts';

/**
 * One organization's plants as read at one version (migration 0021), answering `GET /plants`
 * from memory exactly as the database does (plantList.ts): the same plants, order, pages and
 * bytes. What only the database can know comes with the plants when they are read:
 * - the order of each sortable property, as a rank by the database's own comparison (its
 *   collation, and on SQLite the server's lower()), so no comparison is guessed here;
 * - the lowered name and external ids, lowered by the database as its search index lowers them.
 * The search term is lowered here as the database search lowers it (plantSearch.ts): in
 * JavaScript. A plant contains a term when one of its lowered texts contains it, which is what
 * the database's index ranges and LIKE patterns find.
 */

export type PlantSortProperty = 'plantUuid' | 'name' | 'createdAt' | 'updatedAt';

/** A plant as read for remembering (plantDirectory.ts). */
export interface LoadedPlant {
  row: PlantRow;
  /** Each sortable property's dense rank among the organization's plants, from 1. */
  ranks: Readonly<Record<PlantSortProperty, number>>;
  /** The external ids as stored, which `externalIds=` matches exactly. */
  externalIds: readonly string[];
  /** The name and the external ids, lowered by the database. */
  loweredTexts: readonly string[];
}

/** One page asked for, its sort and page resolved (plantList.ts). */
export interface RememberedPageQuery {
  sort: readonly SortOrder[];
  number: number;
  size: number;
  plantUuids?: readonly string[] | undefined;
  externalIds?: readonly string[] | undefined;
  search?: string | undefined;
}

/**
 * The search's index: for every text of 1 to GRAM units, the entries containing it, ascending.
 * A term that short is its own entry list; a longer one's matches are among the entries of its
 * rarest piece of GRAM units, each then checked whole. Made in one pass with no sorting: with
 * the plants' JSON, 133 ms among 10,000 plants (26 ms among 2,000), where a sorted array of
 * suffixes took 460 ms (the event loop waits while either is made).
 */
const GRAM = 3;
/** Orders of sorts other than the default are made when first asked for; this many kept. */
const MAX_ORDERS = 16;

interface Ordering {
  /** Entry indices in the sort's order. */
  order: Int32Array;
  /** Each entry's place in `order`. */
  positionOf: Int32Array;
}

type GramIndex = ReadonlyMap<string, Int32Array>;

export class RememberedPlants {
  readonly version: number;
  readonly #json: string[];
  readonly #byUuid = new Map<string, number>();
  readonly #byExternalId = new Map<string, number>();
  readonly #loweredTexts: (readonly string[])[];
  readonly #ranks: Record<PlantSortProperty, Int32Array>;
  readonly #orders = new Map<string, Ordering>();
  #grams: GramIndex | undefined;

  constructor(version: number, plants: readonly LoadedPlant[]) {
    this.version = version;
    const count = plants.length;
    this.#json = plants.map((plant) => JSON.stringify(toPlant(plant.row)));
    this.#loweredTexts = plants.map((plant) => plant.loweredTexts);
    const rankOf = (property: PlantSortProperty) =>
      Int32Array.from(plants, (plant) => plant.ranks[property]);
    this.#ranks = {
      plantUuid: rankOf('plantUuid'),
      name: rankOf('name'),
      createdAt: rankOf('createdAt'),
      updatedAt: rankOf('updatedAt'),
    };
    for (let index = 0; index < count; index++) {
      const plant = plants[index]!;
      this.#byUuid.set(plant.row.plant_uuid, index);
      // External ids are unique in an organization (plantStore.ts).
      for (const externalId of plant.externalIds) this.#byExternalId.set(externalId, index);
    }
  }

  get size(): number {
    return this.#json.length;
  }

  /** The page's JSON text, for a query `answersFromMemory` accepts. */
  pageJson(query: RememberedPageQuery): string {
    const term = query.search ? query.search.toLowerCase() : undefined;
    let matches: ArrayLike<number> | undefined;
    if (query.plantUuids && query.plantUuids.length > 0) {
      matches = found(query.plantUuids, this.#byUuid);
    }
    if (query.externalIds && query.externalIds.length > 0) {
      const byExternalId = found(query.externalIds, this.#byExternalId);
      matches = matches ? intersection(matches, byExternalId) : byExternalId;
    }
    if (term !== undefined) {
      const searched = this.#searched(term);
      matches = matches ? intersection(matches, searched) : searched;
    }
    const { order, positionOf } = this.#ordering(query.sort);
    const offset = query.number * query.size;
    const end = offset + query.size;
    let listed: ArrayLike<number>;
    let total: number;
    if (!matches) {
      total = order.length;
      listed = order.subarray(Math.min(offset, total), Math.min(end, total));
    } else {
      total = matches.length;
      const positions = new Int32Array(total);
      for (let at = 0; at < total; at++) positions[at] = positionOf[matches[at]!]!;
      positions.sort();
      listed = positions
        .subarray(Math.min(offset, total), Math.min(end, total))
        .map((position) => order[position]!);
    }
    let content = '';
    for (let at = 0; at < listed.length; at++) {
      if (at > 0) content += ',';
      content += this.#json[listed[at]!]!;
    }
    const page = JSON.stringify(pageMetadata(query.number, query.size, total));
    return `{"content":[${content}],"page":${page}}`;
  }

  /** The entries one of whose lowered texts contains `term` (lowered). */
  #searched(term: string): ArrayLike<number> {
    const grams = (this.#grams ??= this.#gramIndex());
    if (term.length <= GRAM) return grams.get(term) ?? [];
    let rarest: Int32Array | undefined;
    for (let start = 0; start + GRAM <= term.length; start++) {
      const entries = grams.get(term.slice(start, start + GRAM));
      if (!entries) return [];
      if (!rarest || entries.length < rarest.length) rarest = entries;
    }
    const matches: number[] = [];
    for (const entry of rarest!) {
      if (this.#loweredTexts[entry]!.some((text) => text.includes(term))) matches.push(entry);
    }
    return matches;
  }

  /**
   * Made at the first search: lists that are only paged never pay for it. Pieces are cut by
   * UTF-16 units: a term's pieces are cut alike, so its matches are always among the entries
   * found, and the check whole (`includes`) matches characters only, as neither side has a lone
   * surrogate.
   */
  #gramIndex(): GramIndex {
    const building = new Map<string, number[]>();
    const add = (gram: string, entry: number) => {
      let entries = building.get(gram);
      if (!entries) building.set(gram, (entries = []));
      // An entry's texts come one after another: met once already, it is last.
      if (entries[entries.length - 1] !== entry) entries.push(entry);
    };
    this.#loweredTexts.forEach((texts, entry) => {
      for (const text of texts) {
        for (let start = 0; start < text.length; start++) {
          for (let length = 1; length <= GRAM && start + length <= text.length; length++) {
            add(text.slice(start, start + length), entry);
          }
        }
      }
    });
    const grams = new Map<string, Int32Array>();
    for (const [gram, entries] of building) grams.set(gram, Int32Array.from(entries));
    return grams;
  }

  /**
   * The entries in `sort`'s order, then by plant (the list's tie breaker, ascending), unless
   * the sort orders by plant itself: as plantList.ts orders them (lists.ts, `orderedPage`).
   */
  #ordering(sort: readonly SortOrder[]): Ordering {
    let key = '';
    for (const order of sort) key += `${order.property} ${order.direction}|`;
    const kept = this.#orders.get(key);
    if (kept) return kept;
    const keys: { ranks: Int32Array; sign: number }[] = [];
    let unique = false;
    for (const { property, direction } of sort) {
      if (!(property in this.#ranks)) continue;
      unique ||= property === 'plantUuid';
      keys.push({
        ranks: this.#ranks[property as PlantSortProperty],
        sign: direction === 'asc' ? 1 : -1,
      });
    }
    if (!unique) keys.push({ ranks: this.#ranks.plantUuid, sign: 1 });
    const order = Int32Array.from({ length: this.#json.length }, (_, index) => index).sort(
      (a, b) => {
        for (const { ranks, sign } of keys) {
          const difference = ranks[a]! - ranks[b]!;
          if (difference !== 0) return sign * difference;
        }
        return 0;
      },
    );
    const positionOf = new Int32Array(order.length);
    order.forEach((index, position) => (positionOf[index] = position));
    if (this.#orders.size >= MAX_ORDERS) this.#orders.clear();
    const ordering = { order, positionOf };
    this.#orders.set(key, ordering);
    return ordering;
  }
}

/**
 * Whether memory answers the query as the database does: not for a search term with a NUL or a
 * lone surrogate, which the database scans or refuses (plantSearch.ts).
 */
export function answersFromMemory(query: Pick<RememberedPageQuery, 'search'>): boolean {
  const term = query.search?.toLowerCase();
  return term === undefined || (!term.includes('\u0000') && term.isWellFormed());
}

/** The entries `keys` name, each once, in no particular order. */
function found(keys: readonly string[], byKey: ReadonlyMap<string, number>): number[] {
  const entries = new Set<number>();
  for (const key of keys) {
    const index = byKey.get(key);
    if (index !== undefined) entries.add(index);
  }
  return [...entries];
}

function intersection(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const inB = new Set(Array.from(b));
  return Array.from(a).filter((index) => inB.has(index));
}
