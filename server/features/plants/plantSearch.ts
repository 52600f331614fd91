import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../db/tables.ts';
import { containsIgnoreCase } from '../../db/lists.ts';
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

export function plantSearchCondition(
  eb: ExpressionBuilder<Database, 'plants'>,
  engine: Engine,
  term: string,
): Expression<SqlBool> {
  const lowered = term.toLowerCase();
  if (engine === 'postgres') {
    return sql<SqlBool>`plants.plant_uuid in (
      select sp.plant_uuid from plants sp where ${containsIgnoreCase('sp.name', term)}
      union
      select sx.plant_uuid from plant_external_ids sx where ${containsIgnoreCase('sx.external_id', term)})`;
  }
  if (sqliteTrigramTerm(term)) {
    // A quoted FTS5 string is taken literally: no operators, no column filters.
    const phrase = `"${lowered.replaceAll('"', '""')}"`;
    return sql<SqlBool>`plants.plant_uuid in (
      select r.plant_uuid from plant_search s join plant_search_rows r on r.id = s.rowid
      where plant_search match ${phrase})`;
  }
  return eb.or([
    containsIgnoreCase('plants.name', term),
    eb.exists(
      eb
        .selectFrom('plant_external_ids as s')
        .select('s.plant_uuid')
        .whereRef('s.plant_uuid', '=', 'plants.plant_uuid')
        .where(containsIgnoreCase('s.external_id', term)),
    ),
  ]);
}
