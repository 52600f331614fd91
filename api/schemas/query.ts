import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, Uuid } from './common.ts';

/**
 * Query-string building blocks. A query value arrives as a string (or as an array when the
 * parameter is repeated); an empty value counts as absent, as Spring does for its `Pageable`.
 */

const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);

/**
 * How each query parameter looks to a client, for the OpenAPI document: the zod schemas here
 * parse strings, but a client sends integers, booleans and lists.
 */
export const queryParameterDocs = z.registry<{ schema: Record<string, unknown> }>();

function documented<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  queryParameterDocs.add(schema, { schema: json });
  return schema;
}

export function integerParam(name: string, min: number, max: number) {
  const message = `${name} must be an integer from ${min} to ${max}`;
  const schema = z.preprocess(
    blankToUndefined,
    z
      .string({ error: message })
      .regex(/^\s*-?\d{1,10}\s*$/, { error: message })
      .transform((text) => Number(text))
      .pipe(z.int().min(min, { error: message }).max(max, { error: message }))
      .optional(),
  );
  return documented(schema, { type: 'integer', minimum: min, maximum: max });
}

export function booleanParam(name: string) {
  const schema = z.preprocess(
    blankToUndefined,
    z.stringbool({ error: `${name} must be true or false` }).optional(),
  );
  return documented(schema, { type: 'boolean' });
}

/** `a,b` or `x=a&x=b` (or both) → `['a', 'b']`. */
function listParam<T extends z.ZodType<unknown, string>>(
  item: T,
  itemJson: Record<string, unknown>,
) {
  const schema = z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      [value]
        .flat()
        .flatMap((part) => part.split(','))
        .map((part) => part.trim())
        .filter((part) => part.length > 0),
    )
    .pipe(z.array(item))
    .optional();
  return documented(schema, { type: 'array', items: itemJson });
}

export const uuidListParam = (name: string) =>
  listParam(
    z.guid({ error: `${name} must hold UUIDs` }).transform((id) => id.toLowerCase()),
    { type: 'string', format: 'uuid' },
  );
export const stringListParam = () => listParam(z.string().max(200), { type: 'string' });

/** A list of enum values (`FAULT,DEGRADED` or repeated); an unknown value is a 400 naming them. */
export function enumListParam<const V extends readonly [string, ...string[]]>(
  name: string,
  values: V,
) {
  return listParam(
    z.enum(values, { error: `${name} must be one or more of ${values.join(', ')}` }),
    { type: 'string', enum: [...values] },
  );
}

export const uuidParam = (name: string) =>
  documented(
    z.preprocess(
      blankToUndefined,
      z
        .guid({ error: `${name} must be a UUID` })
        .transform((id) => id.toLowerCase())
        .optional(),
    ),
    { type: 'string', format: 'uuid' },
  );

export const searchParam = z.string({ error: 'search must be given once' }).max(200).optional();

export interface SortOrder {
  property: string;
  direction: 'asc' | 'desc';
}

/**
 * Spring's `sort` syntax: `property[,property...][,asc|desc]`, repeatable. Each repetition may
 * name several properties sharing one direction; the direction defaults to ascending.
 */
export function parseSort(values: readonly string[]): SortOrder[] {
  const orders: SortOrder[] = [];
  for (const value of values) {
    const tokens = value
      .split(',')
      .map((token) => token.trim())
      .filter((token) => token.length > 0);
    const last = tokens.at(-1)?.toLowerCase();
    const direction = last === 'desc' ? 'desc' : 'asc';
    const properties = last === 'asc' || last === 'desc' ? tokens.slice(0, -1) : tokens;
    for (const property of properties) orders.push({ property, direction });
  }
  return orders;
}

export function sortParam(sortable: readonly string[]) {
  const schema = z
    .union([z.string(), z.array(z.string())])
    .transform((value, context) => {
      const orders = parseSort([value].flat());
      for (const order of orders) {
        if (!sortable.includes(order.property)) {
          context.addIssue({
            code: 'custom',
            message: `sort property '${order.property}' is unknown; sortable: ${sortable.join(', ')}`,
          });
          return z.NEVER;
        }
      }
      return orders;
    })
    .optional()
    .meta({
      description: `property[,asc|desc], repeatable. Sortable: ${sortable.join(', ')}`,
    });
  return documented(schema, { type: 'array', items: { type: 'string' } });
}

/** `page`, `size`, `sort` and `search`, the parameters every list shares. */
export function listQueryShape(sortable: readonly string[]) {
  return {
    page: integerParam('page', 0, 1_000_000_000).meta({ description: 'Zero-based page index' }),
    size: integerParam('size', 1, PAGE_SIZE_MAX).meta({
      description: `Page size, 1..${PAGE_SIZE_MAX}, default ${PAGE_SIZE_DEFAULT}`,
    }),
    sort: sortParam(sortable),
    search: searchParam.meta({ description: 'Case-insensitive substring filter' }),
  };
}

export type ListQuery = {
  page?: number | undefined;
  size?: number | undefined;
  sort?: SortOrder[] | undefined;
  search?: string | undefined;
};

export const includeRelationshipsShape = {
  includeRelationships: booleanParam('includeRelationships').meta({
    description: 'Include related entities under `relationships`',
  }),
};

export { Uuid };
