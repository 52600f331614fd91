import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../db/tables.ts';
import { containsPattern, likePattern } from '../../db/lists.ts';
import type { Engine } from '../../db/engine.ts';
import { SUFFIX_LENGTH } from '../../db/migrations/0017_plant_text_suffixes.ts';

/**
 * `GET /plants?search=`: the plants whose name or one of whose external ids contains the term,
 * ignoring case (lower() of both sides, Unicode-wide on both engines). Written so an index
 * serves it: on both engines one range of the index of every plant's lowered suffixes (migration
 * 0017) for terms up to a suffix's length; longer ones, on PostgreSQL one trigram-indexed LIKE
 * per table, their union, and on SQLite the FTS5 trigram table (migration 0007).
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
  const suffixes = suffixSearchOf(term);
  if (suffixes) return suffixes;
  if (engine === 'postgres') return { kind: 'trigramIndex', value: containsPattern(term) };
  // A quoted FTS5 string is taken literally: no operators, no column filters.
  if (sqliteTrigramTerm(term)) {
    return { kind: 'fullTextIndex', value: `"${term.toLowerCase().replaceAll('"', '""')}"` };
  }
  return { kind: 'scan', value: containsPattern(term) };
}

/**
 * The range of suffixes (migration 0017) that start with the lowered term, when they can answer
 * it: no longer than a suffix, and text either engine holds as such (no NUL, no lone surrogate,
 * which are scanned or refused as before).
 */
function suffixSearchOf(term: string): PlantSearch | undefined {
  const lowered = term.toLowerCase();
  if (lowered.includes('\u0000') || !lowered.isWellFormed()) return undefined;
  // Never more code points than UTF-16 units: only a long term is counted by code point.
  if (lowered.length > SUFFIX_LENGTH && [...lowered].length > SUFFIX_LENGTH) return undefined;
  const until = textsStartingWithEnd(lowered);
  return until === undefined ? undefined : { kind: 'suffixIndex', value: lowered, until };
}

/**
 * The least text greater than every text that starts with `prefix`, in code point order (which
 * SQLite's BINARY order of UTF-8 is): the prefix with its last character that has a next one
 * moved on by one. None when every character is the last code point.
 */
export function textsStartingWithEnd(prefix: string): string | undefined {
  // A last character in the Basic Multilingual Plane whose next one is too (most terms).
  const lastUnit = prefix.charCodeAt(prefix.length - 1);
  if (lastUnit < 0xd7ff || (lastUnit >= 0xe000 && lastUnit < 0xffff)) {
    return prefix.slice(0, -1) + String.fromCharCode(lastUnit + 1);
  }
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
  engine: Engine,
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
    const matches = sql`select s.plant_uuid from plant_text_suffixes s
      where s.suffix >= cast(${value} as text) and s.suffix < cast(${until} as text)`;
    // PostgreSQL's kept (generic) plan read every plant of the organization and probed the
    // suffixes for each: as an array, the matches are read first and their plants by key.
    return engine === 'postgres'
      ? sql<SqlBool>`plants.plant_uuid = any(array(${matches}))`
      : sql<SqlBool>`plants.plant_uuid in (${matches})`;
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
