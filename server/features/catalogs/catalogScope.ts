import { sql, type RawBuilder } from 'kysely';
import { permission, permissionRequiredMessage, type Permission } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import { forbidden, notFound, unprocessable } from '../../http/errors.ts';
import type { CodedCatalog } from './catalogSupport.ts';

/**
 * Who may see and change which catalog entry. An entry with an organization belongs to it: only
 * its accounts see it (another organization's entry is "not found") and its catalog permissions
 * govern it. An entry without one is a shared reference entry: everyone sees it, and changing it
 * also needs the platform permission of REFERENCE_CATALOGS, which organization accounts never
 * hold, so no organization can rename or recategorize what another organization's devices use.
 */

export interface CatalogViewer {
  organizationUuid: string;
  permissions: readonly string[];
}

export type CatalogTable = CodedCatalog['table'];

/** `organization_uuid` of an entry the viewer may see: shared or the viewer's own. */
export function visibleTo(
  table: CatalogTable,
  viewer: { organizationUuid: string },
): RawBuilder<boolean> {
  const owner = sql.ref(`${table}.organization_uuid`);
  return sql<boolean>`(${owner} is null or ${owner} = ${viewer.organizationUuid})`;
}

function describe(catalog: CodedCatalog, code: string): string {
  return `${catalog.label.toLowerCase()} '${code}' is shared by every organization`;
}

function requirePlatform(viewer: CatalogViewer, needed: Permission, why: string): void {
  if (!viewer.permissions.includes(needed)) {
    throw forbidden(`${permissionRequiredMessage(needed)}: ${why}`);
  }
}

/** The organization a new entry belongs to: the viewer's, or none for a shared one (403 unless platform). */
export function ownerOfNewEntry(
  catalog: CodedCatalog,
  dto: { code: string; shared?: boolean | undefined },
  viewer: CatalogViewer,
): string | null {
  if (!dto.shared) return viewer.organizationUuid;
  requirePlatform(
    viewer,
    permission('REFERENCE_CATALOGS', 'CREATE'),
    `${describe(catalog, dto.code)} once created`,
  );
  return null;
}

/** 403 when the entry is shared and the viewer lacks the platform permission for `action`. */
export function assertMayChange(
  catalog: CodedCatalog,
  entry: { code: string; organizationUuid: string | null },
  viewer: CatalogViewer,
  action: 'UPDATE' | 'DELETE',
): void {
  if (entry.organizationUuid !== null) return;
  requirePlatform(viewer, permission('REFERENCE_CATALOGS', action), describe(catalog, entry.code));
}

export interface VisibleEntry {
  code: string;
  organizationUuid: string | null;
}

/** The entry if the viewer may see it; another organization's entry is as unknown as a missing one. */
export async function findVisibleEntry(
  db: Db,
  catalog: CodedCatalog,
  uuid: string,
  viewer: { organizationUuid: string },
): Promise<VisibleEntry> {
  const { rows } = await sql<{ code: string; organization_uuid: string | null }>`
    select code, organization_uuid from ${sql.table(catalog.table)}
    where ${sql.ref(catalog.idColumn)} = ${uuid} and ${visibleTo(catalog.table, viewer)}`.execute(
    db,
  );
  const row = rows[0];
  if (!row) throw notFound(`${catalog.label} ${uuid} not found`);
  return { code: row.code, organizationUuid: row.organization_uuid };
}

/**
 * 422 unless the referenced entry is one the owner of the referring row may use: a shared entry,
 * or (for a row of an organization) one of that organization's.
 */
export async function assertUsableReference(
  db: Db,
  catalog: CodedCatalog,
  uuid: string,
  owner: string | null,
  field: string,
): Promise<void> {
  const scope =
    owner === null
      ? sql`organization_uuid is null`
      : visibleTo(catalog.table, { organizationUuid: owner });
  const { rows } = await sql<{ found: number }>`
    select 1 as found from ${sql.table(catalog.table)}
    where ${sql.ref(catalog.idColumn)} = ${uuid} and ${scope}`.execute(db);
  if (rows.length === 0) {
    const article = /^[aeiou]/i.test(catalog.label) ? 'an' : 'a';
    const what =
      owner === null
        ? `a shared ${catalog.label.toLowerCase()} (a shared entry may only refer to shared ones)`
        : `${article} ${catalog.label.toLowerCase()}`;
    throw unprocessable(`${field} ${uuid} does not name ${what}`, field);
  }
}
