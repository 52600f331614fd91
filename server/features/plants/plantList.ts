import { sql } from 'kysely';
import type { ListQuery, PageMetadata, Routes } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import { coalescedRows } from '../../db/coalescedStatements.ts';
import { rowsOf } from '../../db/fastQuery.ts';
import {
  ignoringCase,
  orderedPage,
  pagedQuery,
  pageMetadata,
  pageOf,
  sortOf,
  TOTAL,
  type ListOptions,
  type SortColumnsOf,
} from '../../db/lists.ts';
import { templateQuery, type TemplateValues } from '../../db/queryTemplates.ts';
import type { PlantRow } from '../../db/tables.ts';
import { revokedTokensOf } from '../../auth/familyRevocations.ts';
import { filteredPlantsBy, type PlantFilters } from './plantFilters.ts';
import { plantSearchOf } from './plantSearch.ts';
import type { RememberedPageQuery } from './rememberedPlants.ts';

/**
 * `GET /plants`: one page of the organization's plants and their total, in exactly one
 * statement, compiled once per shape (which filters, which sort) and run with the request's
 * values (server/db/queryTemplates.ts). An empty page (no match, or past the end) still answers
 * one row, of nulls, carrying the count, which is only computed then.
 *
 * `familyId`, when given, is the caller's sign-in to check in the same statement: on PostgreSQL
 * the request then needs no round trip of its own to catch up with other instances' writes
 * (server/db/sharedWrites.ts): the plants are read fresh, and so is the revocation.
 */
export interface PlantListAnswer {
  rows: PlantRow[];
  page: PageMetadata;
  /** Whether `familyId` was revoked (false when none was given). */
  revoked: boolean;
}

const PLANT_COLUMNS: SortColumnsOf<Routes['listPlants']> = {
  plantUuid: 'plants.plant_uuid',
  name: ignoringCase('plants.name'),
  createdAt: 'plants.created_at',
  updatedAt: 'plants.updated_at',
};

const LIST: ListOptions = {
  sortColumns: PLANT_COLUMNS,
  defaultSort: [{ property: 'name', direction: 'asc' }],
  tieBreaker: 'plants.plant_uuid',
  sortColumnsNotNull: true,
};

/** The page `query` asks for, its defaults applied: as the directory takes it. */
export function rememberedPageQuery(query: ListQuery & PlantFilters): RememberedPageQuery {
  const { number, size } = pageOf(query);
  return { ...query, sort: sortOf(query, LIST), number, size };
}

const COUNT = '__plant_count';
const REVOKED = '__family_revoked';

type ListRow = PlantRow & Record<typeof TOTAL | typeof COUNT | typeof REVOKED, unknown>;

export async function plantListPage(
  db: Db,
  organizationUuid: string,
  query: ListQuery & PlantFilters,
  familyId?: string,
): Promise<PlantListAnswer> {
  const { number, size } = pageOf(query);
  const sort = sortOf(query, LIST);
  const search = query.search ? plantSearchOf(engineOf(db), query.search) : undefined;
  // Every value is bound, so one given only sometimes is in the template's values only then.
  const values = {
    organization: organizationUuid,
    plantUuids: query.plantUuids ?? [],
    externalIds: query.externalIds ?? [],
    limit: size,
    offset: number * size,
    search: search?.value,
    searchUntil: search?.until,
    family: familyId,
  };
  const filters = [search?.kind ?? 'all', values.plantUuids.length, values.externalIds.length];
  const key = [
    ...filters,
    familyId === undefined ? 'unchecked' : 'checked',
    ...sort.map((order) => `${order.property} ${order.direction}`),
  ].join('|');
  const filteredBy = (
    v: Pick<
      typeof values,
      'organization' | 'plantUuids' | 'externalIds' | 'search' | 'searchUntil'
    >,
  ) =>
    filteredPlantsBy(db, v.organization, {
      plantUuids: v.plantUuids,
      externalIds: v.externalIds,
      search: search && { kind: search.kind, value: v.search!, until: v.searchUntil },
    });
  const everyPlant = !search && values.plantUuids.length === 0 && values.externalIds.length === 0;
  if (familyId === undefined && !everyPlant) {
    // No sign-in to check in the statement (SQLite): the few matches are read as a page alone.
    const page = templateQuery(db, `page|${key}`, values, (v) =>
      orderedPage(filteredBy(v), sort, LIST, v.limit, v.offset),
    );
    const rows = (await rowsOf(db, page)) as PlantRow[];
    const { limit, offset } = values;
    // A page short of its size, unless past the end, is the last: it tells the total.
    const last = rows.length < limit && (rows.length > 0 || offset === 0);
    const { limit: _, offset: __, family: ___, ...countValues } = values;
    const totalElements = last
      ? offset + rows.length
      : await countOf(db, `count|${filters.join('|')}`, countValues, filteredBy);
    return { rows, page: pageMetadata(number, size, totalElements), revoked: false };
  }
  const compiled = templateQuery(db, key, values, (v) => {
    const filtered = filteredBy(v);
    const count = filtered.clearSelect().select(sql<number>`count(*)`.as('n'));
    // Every plant: the page is read in an index's order (migration 0015) up to its LIMIT, and
    // its total is the organization's count kept by triggers (migration 0020), nothing sorted
    // or counted. Filtered, the few matches are counted as they are sorted, and only counted
    // again when the page is empty.
    const listed = everyPlant
      ? db
          .selectFrom(plantCountOf(db, v.organization).as('one'))
          .leftJoin(orderedPage(filtered, sort, LIST, v.limit, v.offset).as('page'), (join) =>
            join.onTrue(),
          )
          .selectAll('page')
          .select(sql.ref('one.n').as(COUNT))
      : db
          .selectFrom(db.selectNoFrom(sql<number>`1`.as('one')).as('one'))
          .leftJoin(pagedQuery(filtered, sort, LIST, v.limit, v.offset).as('page'), (join) =>
            join.onTrue(),
          )
          .selectAll('page')
          .select(sql<number>`coalesce(${sql.ref(`page.${TOTAL}`)}, (${count}))`.as(COUNT));
    return listed.$if(familyId !== undefined, (withFamily) =>
      withFamily.select((eb) => eb.exists(revokedTokensOf(db, v.family!)).as(REVOKED)),
    );
  });
  // Concurrent searches go together (PostgreSQL); not unsearched pages, whose plan in the
  // gathered statement cost the database twice their time alone, nor `in` lists' many shapes.
  const gathered =
    search !== undefined && values.plantUuids.length === 0 && values.externalIds.length === 0;
  const rows = (await ((gathered && coalescedRows(db, compiled)) ||
    rowsOf(db, compiled))) as ListRow[];
  const first = rows[0]!;
  const totalElements = Number(first[COUNT]);
  const revoked = Boolean(first[REVOKED]);
  // The extra columns stay on the rows, which are only read field by field (`toPlant`): deleting
  // them turned each row into a slow dictionary object, 13 µs of a page's CPU on PostgreSQL.
  const found = first.plant_uuid === null ? [] : rows;
  return { rows: found, page: pageMetadata(number, size, totalElements), revoked };
}

/** The organization's number of plants, as one row of one column `n`. */
function plantCountOf(db: Db, organization: string) {
  return db.selectNoFrom(keptPlantCount(db, organization).as('n'));
}

/** The organization's number of plants kept by triggers (migration 0020), 0 without a row. */
export function keptPlantCount(db: Db, organization: string) {
  const kept = db
    .selectFrom('plant_counts')
    .select('plant_count')
    .where('organization_uuid', '=', organization);
  return sql<number>`coalesce((${kept}), 0)`;
}

async function countOf<V extends TemplateValues>(
  db: Db,
  key: string,
  values: V,
  filteredBy: (v: V) => ReturnType<typeof filteredPlantsBy>,
): Promise<number> {
  const counted = templateQuery(db, key, values, (v) =>
    filteredBy(v)
      .clearSelect()
      .select(sql<number>`count(*)`.as('n')),
  );
  const [row] = await rowsOf(db, counted);
  return Number(row?.n ?? 0);
}
