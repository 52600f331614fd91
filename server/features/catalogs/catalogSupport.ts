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

/**
 * 409 when `code` is taken where the entry would live: an organization's entry may not repeat a
 * shared code or one of its own organization's (another organization's codes are invisible and
 * free); a shared entry may repeat no code at all, or some organization would see two.
 */
export async function assertCodeFree(
  db: Db,
  catalog: CodedCatalog,
  code: string,
  exceptUuid: string | null,
  owner: string | null,
): Promise<void> {
  const scope =
    owner === null ? sql`` : sql`and (organization_uuid is null or organization_uuid = ${owner})`;
  const { rows } = await sql<{ uuid: string }>`
    select ${sql.ref(catalog.idColumn)} as uuid from ${sql.table(catalog.table)}
    where code = ${code} ${scope}`.execute(db);
  if (rows.some((holder) => holder.uuid !== exceptUuid)) throw codeTaken(catalog, code);
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

/** Who uses an entry: the viewer's organization (counted), and whether anyone else does. */
export interface ReferenceCount {
  own: number;
  elsewhere: boolean;
}

/**
 * How many rows of the viewer's organization reference the entry, and whether rows of other
 * organizations do (never how many, nor whose: that is theirs to know). Devices and sensors
 * belong to their plant's organization; load signatures to their own, shared ones to everyone.
 */
export async function countReferences(
  db: Db,
  reference: Reference,
  uuid: string,
  organizationUuid: string,
): Promise<ReferenceCount> {
  const { rows } =
    reference.table === 'load_signatures'
      ? await sql<{ own: number | string; others: number | string }>`
          select
            sum(case when organization_uuid is null or organization_uuid = ${organizationUuid}
              then 1 else 0 end) as own,
            sum(case when organization_uuid is null or organization_uuid = ${organizationUuid}
              then 0 else 1 end) as others
          from load_signatures where ${sql.ref(reference.column)} = ${uuid}`.execute(db)
      : await sql<{ own: number | string; others: number | string }>`
          select
            sum(case when plants.organization_uuid = ${organizationUuid} then 1 else 0 end) as own,
            sum(case when plants.organization_uuid = ${organizationUuid} then 0 else 1 end) as others
          from ${sql.table(reference.table)} as used
          join plants on plants.plant_uuid = used.plant_uuid
          where ${sql.ref(`used.${reference.column}`)} = ${uuid}`.execute(db);
  return { own: Number(rows[0]?.own ?? 0), elsewhere: Number(rows[0]?.others ?? 0) > 0 };
}

/** 409 naming what still uses an entry, when anything does. */
export function assertUnreferenced(
  catalog: CodedCatalog,
  code: string,
  usages: readonly { count: ReferenceCount; noun: string }[],
): void {
  const own = usages
    .filter((usage) => usage.count.own > 0)
    .map((usage) => countOf(usage.count.own, usage.noun));
  const elsewhere = usages.some((usage) => usage.count.elsewhere);
  if (own.length === 0 && !elsewhere) return;
  const users = [...own, ...(elsewhere ? ['other organizations'] : [])].join(' and ');
  throw conflict(`${catalog.label} '${code}' is used by ${users}; it cannot be deleted`);
}
