import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database.ts';
import { fixedShape } from './fastQuery.ts';

/**
 * Queries whose SQL depends on a few choices (which filters are given, how the list is sorted)
 * but never on the values: Kysely builds and compiles each choice once per database handle, and
 * each run only puts its values in place. Building and compiling a list query through Kysely
 * cost more CPU than SQLite running it (a search among 2,000 plants).
 *
 * `values` names every value the query binds (an array for an `in` list); `build` receives the
 * same names holding stand-ins, and must use each stand-in only as a bound value, never to choose
 * the query's shape (that is what `key` says) nor transformed (lowered, escaped, wrapped). A
 * value may be undefined (not given): `key` must then tell the queries with and without it apart.
 */
export type TemplateValues = Readonly<Record<string, unknown>>;

interface Template {
  query: CompiledQuery<unknown>;
  /** For each parameter: the value's name and its index in an array value, or a constant. */
  slots: readonly (readonly [name: string, index: number] | undefined)[];
}

const templates = new WeakMap<Db, Map<string, Template>>();
/** Keys differ by the length of `in` lists, among others: a bound on what is kept. */
const MAX_TEMPLATES = 128;

export function templateQuery<Row, V extends TemplateValues>(
  db: Db,
  key: string,
  values: V,
  build: (standIns: V) => Compilable<Row>,
): CompiledQuery<Row> {
  let byKey = templates.get(db);
  if (!byKey) templates.set(db, (byKey = new Map()));
  let template = byKey.get(key);
  if (!template) {
    template = compileTemplate(values, build);
    if (byKey.size >= MAX_TEMPLATES) byKey.clear();
    byKey.set(key, template);
  }
  const { query, slots } = template;
  const parameters = query.parameters.map((constant, index) => {
    const slot = slots[index];
    if (!slot) return constant;
    const value = values[slot[0]];
    return slot[1] === -1 ? value : (value as readonly unknown[])[slot[1]];
  });
  return { ...query, parameters } as CompiledQuery<Row>;
}

/** A value left undefined is not given: it has no stand-in, and the key says it is absent. */
const given = (values: TemplateValues) =>
  Object.entries(values).filter(([, value]) => value !== undefined);

function compileTemplate<V extends TemplateValues>(
  values: V,
  build: (standIns: V) => Compilable<unknown>,
): Template {
  const positions = new Map<string, readonly [string, number]>();
  const standIn = (name: string, index: number) => {
    // Capitals, LIKE wildcards and a quote: lowering, escaping or quoting it would show.
    const text = `\u0000Template%_"${name}:${index}\u0000`;
    positions.set(text, [name, index]);
    return text;
  };
  const standIns = Object.fromEntries(
    given(values).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.map((_, index) => standIn(name, index)) : standIn(name, -1),
    ]),
  ) as unknown as V;
  const query = build(standIns).compile();
  const slots = query.parameters.map((parameter) =>
    typeof parameter === 'string' ? positions.get(parameter) : undefined,
  );
  const used = new Set(slots.filter((slot) => slot !== undefined));
  if (used.size !== positions.size) {
    throw new Error('templateQuery: every value must be used as a bound value, untransformed');
  }
  // Without an `in` list the shapes are few: named, so PostgreSQL keeps each one's plan.
  const fixed = given(values).every(([, value]) => !Array.isArray(value) || value.length === 0);
  return { query: fixed ? fixedShape(query) : query, slots };
}
