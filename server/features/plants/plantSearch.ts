import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../db/tables.ts';
import { containsPattern, likePattern } from '../../db/lists.ts';
import type { Engine } from '../../db/engine.ts';

/**
 * `GET /plants?search=`: the plants whose name or one of whose external ids contains the term,
 * ignoring case (lower() of both sides, Unicode-wide on both engines). Written so each engine's
 * index serves it (migration 0007): on PostgreSQL one trigram-indexed LIKE per table, their
 * union; on SQLite the FTS5 trigram table, for terms of 3 characters or more, which trigrams
 * can find (a shorter term scans, as before).
 */

/** The fewest characters the trigram table can look up. */
const TRIGRAM = 3;

/** Whether SQLite answers this term from its trigram table (else by scanning). */
export function sqliteTrigramTerm(term: string): boolean {
  const lowered = term.toLowerCase();
  return [...lowered].length >= TRIGRAM && !lowered.includes('\u0000');
}

/**
 * How a term is looked up, and the one value the lookup binds: the query's shape depends on the
 * `kind` only, so a compiled query serves every term of that kind (server/db/queryTemplates.ts).
 */
export interface PlantSearch {
  kind: 'trigramIndex' | 'fullTextIndex' | 'scan';
  /** The LIKE pattern, or the FTS5 phrase. */
  value: string;
}

export function plantSearchOf(engine: Engine, term: string): PlantSearch {
  if (engine === 'postgres') return { kind: 'trigramIndex', value: containsPattern(term) };
  // A quoted FTS5 string is taken literally: no operators, no column filters.
  if (sqliteTrigramTerm(term)) {
    return { kind: 'fullTextIndex', value: `"${term.toLowerCase().replaceAll('"', '""')}"` };
  }
  return { kind: 'scan', value: containsPattern(term) };
}

/** `search.value` may be a stand-in (server/db/queryTemplates.ts): it is only bound. */
export function plantSearchCondition(
  eb: ExpressionBuilder<Database, 'plants'>,
  search: PlantSearch,
): Expression<SqlBool> {
  const { kind, value } = search;
  if (kind === 'trigramIndex') {
    return sql<SqlBool>`plants.plant_uuid in (
      select sp.plant_uuid from plants sp where ${likePattern('sp.name', value)}
      union
      select sx.plant_uuid from plant_external_ids sx where ${likePattern('sx.external_id', value)})`;
  }
  if (kind === 'fullTextIndex') {
    return sql<SqlBool>`plants.plant_uuid in (
      select r.plant_uuid from plant_search s join plant_search_rows r on r.id = s.rowid
      where plant_search match ${value})`;
  }
  return eb.or([
    likePattern('plants.name', value),
    eb.exists(
      eb
        .selectFrom('plant_external_ids as s')
        .select('s.plant_uuid')
        .whereRef('s.plant_uuid', '=', 'plants.plant_uuid')
        .where(likePattern('s.external_id', value)),
    ),
  ]);
}
