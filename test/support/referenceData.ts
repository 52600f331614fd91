import { readCatalogUuids, type CatalogUuids } from '../../server/demo/catalogUuids.ts';
import type { TestServer } from './testServer.ts';

export type ReferenceUuids = CatalogUuids;

/**
 * Code → uuid of the seeded reference catalogs, read from the database rather than through the
 * catalog routes, so tests of other routes do not depend on those.
 */
export function referenceUuids(server: TestServer): Promise<ReferenceUuids> {
  return readCatalogUuids(server.server.context.db);
}
