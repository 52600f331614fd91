import type { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { CoalescedReads } from './coalescedReads.ts';
import type { Db } from './database.ts';
import { directPoolOf } from './fastQuery.ts';

/**
 * Runs of one fixed-shape select on PostgreSQL, each with its own values, gathered into one
 * statement (`CoalescedReads`): every run becomes a row of arrays the statement unnests, and the
 * select, its parameters turned into that row's columns, is joined laterally to it. Each
 * statement is a round trip whose fixed cost on our side (the socket write that wakes the
 * backend, the pool, the result's description) was most of a short list's CPU; under load one
 * answers several requests.
 *
 * The arrays are unnested from sub-selects, as coarseRollupBatches.ts explains: PostgreSQL then
 * keeps the statement's generic plan whatever the batch's size (planning a search anew cost a
 * millisecond of the backend's CPU per run). Each run's rows come in the order its select gives
 * them, as the rows of a nested loop do: the statement orders nothing itself.
 *
 * Only selects whose values are all text or safe integers are gathered (others run alone).
 */

const ASK = '__coalesced_ask';

/** The PostgreSQL type of each value's array, or undefined when one cannot be bound so. */
function arrayTypesOf(values: readonly unknown[]): string[] | undefined {
  const types: string[] = [];
  for (const value of values) {
    if (typeof value === 'string') types.push('text[]');
    else if (typeof value === 'number' && Number.isSafeInteger(value)) types.push('int8[]');
    else return undefined;
  }
  return types;
}

/** The select of `sql` for every row of the unnested arrays (`$n` is column `pn`). */
export function coalescedText(sql: string, types: readonly string[]): string {
  const arrays = types.map((type, index) => `(select $${index + 2}::${type})`);
  const columns = types.map((_, index) => `p${index + 1}`);
  const inner = sql.replace(/\$(\d+)/g, (_, number: string) => `q.p${number}`);
  return `select q.ask as ${ASK}, r.*
    from unnest((select $1::int4[]), ${arrays.join(', ')}) as q(ask, ${columns.join(', ')})
    cross join lateral (${inner}) as r`;
}

interface Statement {
  name: string;
  text: string;
  reader: CoalescedReads<readonly unknown[], Record<string, unknown>[]>;
}

const MAX_STATEMENTS = 64;
const statements = new WeakMap<pg.Pool, Map<string, Statement>>();
let named = 0;

async function readAll(
  pool: pg.Pool,
  statement: Pick<Statement, 'name' | 'text'>,
  asks: readonly (readonly unknown[])[],
): Promise<Record<string, unknown>[][]> {
  const columns = asks[0]!.map((_, index) => asks.map((ask) => ask[index]));
  const { rows } = await pool.query<Record<string, unknown>>({
    name: statement.name,
    text: statement.text,
    values: [asks.map((_, index) => index), ...columns],
  });
  const answers = asks.map((): Record<string, unknown>[] => []);
  // The ask's column stays on its rows: deleting a row's first property made it a dictionary
  // object, slower to build and every one of its fields slower to read (the plant list's rows).
  for (const row of rows) answers[row[ASK] as number]!.push(row);
  return answers;
}

/**
 * The rows of `query` (a select of a fixed shape: `fixedShape`) read together with concurrent
 * runs of it; undefined when it is not to be gathered (not PostgreSQL outside a transaction, or
 * values of another type), for the caller to run it itself. Each row also carries a column of
 * the gathering's own (see `readAll`): the caller reads its rows field by field.
 */
export function coalescedRows<Row>(db: Db, query: CompiledQuery<Row>): Promise<Row[]> | undefined {
  const pool = directPoolOf(db);
  const types = pool && arrayTypesOf(query.parameters);
  if (!pool || !types || types.length === 0) return undefined;
  let byText = statements.get(pool);
  if (!byText) statements.set(pool, (byText = new Map()));
  const key = `${types.join(',')}|${query.sql}`;
  let statement = byText.get(key);
  if (!statement) {
    if (byText.size >= MAX_STATEMENTS) return undefined;
    const text = coalescedText(query.sql, types);
    const made: Statement = {
      name: `plantdesk_coalesced_${named++}`,
      text,
      reader: new CoalescedReads((asks) => readAll(pool, made, asks)),
    };
    statement = made;
    byText.set(key, statement);
  }
  return statement.reader.read(query.parameters) as Promise<Row[]>;
}
