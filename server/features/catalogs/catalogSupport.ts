import { sql, type RawBuilder } from 'kysely';
import type { SortOrder } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/constraints.ts';
import { containsIgnoreCase, ignoringCase, type SortColumns } from '../../db/lists.ts';
import { conflict, unprocessable } from '../../http/errors.ts';

/** What the editable catalogs (sensor types, device types, load signatures) share. */

export interface CodedCatalog {
  /** Singular, capitalised, for messages: `Sensor type`. */
  label: string;
  table: 'sensor_types' | 'device_types' | 'load_signatures';
  idColumn: 'sensor_type_uuid' | 'device_type_uuid' | 'load_signature_uuid';
}

/** The sort columns every coded catalog has; each adds its own columns to these. */
export function catalogSortColumns({ table }: CodedCatalog) {
  return {
    code: ignoringCase(`${table}.code`),
    name: ignoringCase(`${table}.name`),
    description: ignoringCase(`${table}.description`),
    createdAt: `${table}.created_at`,
    updatedAt: `${table}.updated_at`,
  } satisfies SortColumns;
}

export const SORT_BY_CODE: readonly SortOrder[] = [{ property: 'code', direction: 'asc' }];

/** `search` over several columns: a match in any of them keeps the row. */
export function containsAnyIgnoreCase(
  columns: readonly string[],
  term: string,
): RawBuilder<boolean> {
  const matches = columns.map((column) => containsIgnoreCase(column, term));
  return sql<boolean>`(${sql.join(matches, sql` or `)})`;
}

const codeTaken = (catalog: CodedCatalog, code: string) =>
  conflict(`${catalog.label} code '${code}' is already used`);

/** 409 when another entry of the catalog already has `code`. */
export async function assertCodeFree(
  db: Db,
  catalog: CodedCatalog,
  code: string,
  exceptUuid: string | null,
): Promise<void> {
  const { rows } = await sql<{ uuid: string }>`
    select ${sql.ref(catalog.idColumn)} as uuid from ${sql.table(catalog.table)}
    where code = ${code}`.execute(db);
  const holder = rows[0];
  if (holder && holder.uuid !== exceptUuid) throw codeTaken(catalog, code);
}

/**
 * Runs a create or update, turning what its checks could not see (another request writing the
 * same code, or deleting a referenced entry, in between) into the answers the checks give.
 */
export async function guardCatalogWrite<T>(
  catalog: CodedCatalog,
  code: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken(catalog, code ?? '');
    if (isForeignKeyViolation(error)) {
      throw unprocessable(
        `An entry referenced by this ${catalog.label.toLowerCase()} no longer exists`,
      );
    }
    throw error;
  }
}

/** A delete racing with a new reference to the entry fails on the foreign key: still a 409. */
export async function guardCatalogDelete(catalog: CodedCatalog, work: () => Promise<void>) {
  try {
    await work();
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw conflict(`${catalog.label} is still referenced and cannot be deleted`);
    }
    throw error;
  }
}

/** `1 device`, `3 devices`. */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** The references to catalog entries that block their deletion. */
export type Reference =
  | { table: 'sensors'; column: 'sensor_type_uuid' }
  | { table: 'devices'; column: 'device_type_uuid' | 'load_signature_uuid' }
  | { table: 'load_signatures'; column: 'device_type_uuid' };

/** How many rows (of every organization: the catalogs are global) reference the entry. */
export async function countReferences(db: Db, reference: Reference, uuid: string) {
  const { rows } = await sql<{ total: number | string }>`
    select count(*) as total from ${sql.table(reference.table)}
    where ${sql.ref(reference.column)} = ${uuid}`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

/** 409 naming what still uses an entry, when anything does. */
export function assertUnreferenced(
  catalog: CodedCatalog,
  code: string,
  usages: readonly { count: number; noun: string }[],
): void {
  const used = usages.filter((usage) => usage.count > 0);
  if (used.length === 0) return;
  const list = used.map((usage) => countOf(usage.count, usage.noun)).join(' and ');
  throw conflict(`${catalog.label} '${code}' is used by ${list}; it cannot be deleted`);
}
