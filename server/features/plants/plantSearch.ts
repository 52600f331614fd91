import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../db/tables.ts';
import { containsPattern, likePattern } from '../../db/lists.ts';
import type { Engine } from '../../db/engine.ts';
import { SUFFIX_LENGTH } from '../../db/migrations/0017_plant_search_suffixes.ts';

/**
 * `GET /plants?search=`: the plants whose name or one of whose external ids contains the term,
 * ignoring case (lower() of both sides, Unicode-wide on both engines). Written so each engine's
 * index serves it (migration 0007): on PostgreSQL one trigram-indexed LIKE per table, their
 * union; on SQLite one range of the index of every plant's suffixes (migration 0017), and
 * for terms longer than those suffixes the FTS5 trigram table (migration 0007).
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
  kind: 'trigramIndex' | 'fullTextIndex' | 'suffixIndex' | 'scan';
  /** The LIKE pattern, the FTS5 phrase, or the lowered term (the suffixes' range from it). */
  value: string;
  /** The end of the suffixes' range (excluded): the least text after all that start with the term. */
  until?: string | undefined;
}

export function plantSearchOf(engine: Engine, term: string): PlantSearch {
  if (engine === 'postgres') return { kind: 'trigramIndex', value: containsPattern(term) };
  // A quoted FTS5 string is taken literally: no operators, no column filters.
  const lowered = term.toLowerCase();
  // Lone surrogates are not text SQLite can hold as such: scanned, as before any index.
  if (lowered.includes('\u0000') || !lowered.isWellFormed()) {
    return { kind: 'scan', value: containsPattern(term) };
  }
  const until = [...lowered].length <= SUFFIX_LENGTH ? textsStartingWithEnd(lowered) : undefined;
  if (until !== undefined) return { kind: 'suffixIndex', value: lowered, until };
  if (sqliteTrigramTerm(term)) {
    return { kind: 'fullTextIndex', value: `"${lowered.replaceAll('"', '""')}"` };
  }
  return { kind: 'scan', value: containsPattern(term) };
}

/**
 * The least text greater than every text that starts with `prefix`, in code point order (which
 * SQLite's BINARY order of UTF-8 is): the prefix with its last character that has a next one
 * moved on by one. None when every character is the last code point.
 */
export function textsStartingWithEnd(prefix: string): string | undefined {
  const characters = [...prefix];
  while (characters.length > 0) {
    const last = characters.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      // After the last code point before the surrogates comes the first after them.
      const next = last === 0xd7ff ? 0xe000 : last + 1;
      return characters.join('') + String.fromCodePoint(next);
    }
  }
  return undefined;
}

/** `search.value` may be a stand-in (server/db/queryTemplates.ts): it is only bound. */
export function plantSearchCondition(
  eb: ExpressionBuilder<Database, 'plants'>,
  search: PlantSearch,
): Expression<SqlBool> {
  const { kind, value, until } = search;
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
  if (kind === 'suffixIndex') {
    return sql<SqlBool>`plants.plant_uuid in (
      select s.plant_uuid from plant_search_suffixes s
      where s.suffix >= cast(${value} as text) and s.suffix < cast(${until} as text))`;
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
