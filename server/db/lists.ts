import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from './database.ts';
import { rowsOf } from './fastQuery.ts';
import {
  metadataProblem,
  PAGE_SIZE_DEFAULT,
  type ListQuery,
  type PageMetadata,
  type RouteSpec,
  type SortOrder,
} from '../../api/index.ts';

/**
 * Which column each sortable API property orders by. Text that people read (names, codes) sorts
 * ignoring case, so "alpha" does not come after "Zeta" as it would by byte order.
 */
export type SortColumn =
  string | { column: string; ignoreCase: true } | { expression: RawBuilder<unknown> };
export type SortColumns = Record<string, SortColumn>;

/** The columns of a list route: one for each property its route declares sortable. */
export type SortColumnsOf<R extends RouteSpec> = Record<
  NonNullable<R['sortable']>[number],
  SortColumn
>;

export const ignoringCase = (column: string): SortColumn => ({ column, ignoreCase: true });

export interface ListOptions {
  sortColumns: SortColumns;
  defaultSort: readonly SortOrder[];
  /** A unique column, last in every order, so pages never overlap. */
  tieBreaker: string;
  /**
   * Every sort column is NOT NULL: the order then says nothing of where empty values go, so an
   * index in the same order serves it (SQLite and PostgreSQL keep nulls at opposite ends).
   */
  sortColumnsNotNull?: boolean;
}

/**
 * Fetches one page of a filtered query and the total count, in one statement where it can:
 * the count rides along as a window function. Takes the query with its filters and select list;
 * adds ordering, limit and offset.
 */
export async function fetchPage<DB, TB extends keyof DB, O>(
  db: Db,
  query: SelectQueryBuilder<DB, TB, O>,
  list: ListQuery,
  options: ListOptions,
): Promise<{ rows: O[]; page: PageMetadata }> {
  const { number, size } = pageOf(list);
  const paged = pagedQuery(query, sortOf(list, options), options, size, number * size);
  const rows = (await rowsOf(db, paged.compile())) as (O &
    Partial<Record<typeof TOTAL, unknown>>)[];
  const totalElements = rows.length > 0 ? Number(rows[0]![TOTAL]) : await countAll(db, query);
  // The rows are this call's own fresh objects: dropping the count column in place is safe.
  for (const row of rows) delete row[TOTAL];
  return { rows, page: pageMetadata(number, size, totalElements) };
}

/** The page asked for: its number and size, defaults applied. */
export function pageOf(list: ListQuery): { number: number; size: number } {
  return { number: list.page ?? 0, size: list.size ?? PAGE_SIZE_DEFAULT };
}

export function sortOf(list: ListQuery, options: ListOptions): readonly SortOrder[] {
  return list.sort && list.sort.length > 0 ? list.sort : options.defaultSort;
}

export function pageMetadata(number: number, size: number, totalElements: number): PageMetadata {
  return { number, size, totalElements, totalPages: Math.ceil(totalElements / size) };
}

/**
 * The query ordered by `sort` (then the tie breaker), limited to one page, the total count riding
 * along in the `TOTAL` column. `limit` and `offset` are bound values (or stand-ins for them).
 */
export function pagedQuery<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  sort: readonly SortOrder[],
  options: ListOptions,
  limit: unknown,
  offset: unknown,
) {
  return orderedPage(query, sort, options, limit, offset).select(
    sql<number>`count(*) over ()`.as(TOTAL),
  );
}

/**
 * As `pagedQuery` without the count: the window count needs every row before the first is
 * answered, so a page read in an index's order could not stop at its LIMIT.
 */
export function orderedPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  sort: readonly SortOrder[],
  options: ListOptions,
  limit: unknown,
  offset: unknown,
) {
  let ordered = query;
  let unique = false;
  for (const order of sort) {
    const spec = options.sortColumns[order.property];
    if (!spec) continue;
    unique ||= spec === options.tieBreaker;
    const column =
      typeof spec === 'string'
        ? sql.ref(spec)
        : 'expression' in spec
          ? spec.expression
          : sql`lower(${sql.ref(spec.column)})`;
    // Empty values last either way: SQLite and PostgreSQL disagree on their default place.
    ordered = ordered.orderBy(column, (by) => {
      const direction = order.direction === 'asc' ? by.asc() : by.desc();
      return options.sortColumnsNotNull ? direction : direction.nullsLast();
    });
  }
  // Ordered by the tie breaker already, the rows have no ties left to order.
  if (!unique) ordered = ordered.orderBy(sql.ref(options.tieBreaker), 'asc');
  return (
    ordered
      // Cast: SQLite re-prepares a statement on each run when LIMIT or OFFSET is a bare parameter.
      .limit(sql<number>`cast(${limit} as bigint)`)
      .offset(sql<number>`cast(${offset} as bigint)`)
  );
}

/** The column the window count rides in; removed from the rows before they are answered. */
export const TOTAL = '__total_elements';

/** A page past the end has no row to carry the count: count on its own. */
async function countAll<DB, TB extends keyof DB, O>(
  db: Db,
  query: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  const count = (query as unknown as SelectQueryBuilder<DB, TB, object>)
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`count(*)`.as('total'));
  const [row] = (await rowsOf(db, count.compile())) as { total: number | string }[];
  return Number(row?.total ?? 0);
}

/** `lower(column) LIKE '%term%'` with the term's wildcards escaped; portable to PostgreSQL. */
export function containsIgnoreCase(column: string, term: string): RawBuilder<boolean> {
  return likePattern(column, containsPattern(term));
}

/** The LIKE pattern of `containsIgnoreCase`: the lowered term, its wildcards escaped. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** `lower(column) LIKE pattern`, the pattern bound (see `containsPattern`). */
export function likePattern(column: string, pattern: unknown): RawBuilder<boolean> {
  // Cast: SQLite re-prepares a statement on each run when a LIKE pattern is a bare parameter.
  return sql<boolean>`lower(${sql.ref(column)}) like cast(${pattern} as text) escape '\\'`;
}

export const nowIso = (now: () => Date) => now().toISOString();

/**
 * Stored metadata as answered. Metadata stored before the limits existed may exceed them; such a
 * value is answered as a note rather than breaking every list it appears in.
 */
export function storedMetadata(text: string): Record<string, unknown> {
  // No metadata, as most plants and devices have: nothing to parse or check (the check encodes
  // the value again to measure it, the most of a listed plant's own cost).
  if (text === '{}') return {};
  let value: Record<string, unknown>;
  try {
    value = parseJsonObject(text);
  } catch {
    return { plantdeskNotice: 'The stored metadata could not be read' };
  }
  const problem = metadataProblem(value);
  return problem ? { plantdeskNotice: `The stored metadata is not shown: ${problem}` } : value;
}

export function parseJsonObject(text: string): Record<string, unknown> {
  const value = JSON.parse(text) as unknown;
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
