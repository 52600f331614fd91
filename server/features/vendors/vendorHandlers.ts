import { sql } from 'kysely';
import type { Routes } from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import { inTransaction } from '../../db/database.ts';
import {
  fetchPage,
  ignoringCase,
  nowIso,
  parseJsonObject,
  type SortColumns,
  type SortColumnsOf,
} from '../../db/lists.ts';
import { notFound } from '../../http/errors.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { containsAnyIgnoreCase, SORT_BY_CODE } from '../catalogs/catalogSupport.ts';
import { toVendor } from '../catalogs/catalogRecords.ts';
import {
  findConfiguration,
  findVendorOrThrow,
  removeConfiguration,
  saveConfiguration,
  toPlantVendor,
} from './plantVendorStore.ts';
import { resolveSettings, sealSecrets, storedSettingsOf } from './vendorSettings.ts';

type VendorHandlers = Pick<
  RouteHandlers,
  'listVendors' | 'listPlantVendors' | 'configurePlantVendor' | 'unconfigurePlantVendor'
>;

const VENDOR_COLUMNS: SortColumnsOf<Routes['listVendors']> = {
  vendorUuid: 'vendors.vendor_uuid',
  code: ignoringCase('vendors.code'),
  name: ignoringCase('vendors.name'),
  kind: 'vendors.kind',
};

const PLANT_VENDOR_COLUMNS: SortColumnsOf<Routes['listPlantVendors']> = {
  ...VENDOR_COLUMNS,
  // Not configured before configured, ascending.
  configured: { expression: sql`case when configured.plant_uuid is null then 0 else 1 end` },
  configuredAt: 'configured.configured_at',
};

const listOptions = (sortColumns: SortColumns) => ({
  sortColumns,
  defaultSort: SORT_BY_CODE,
  tieBreaker: 'vendors.vendor_uuid',
});

const SEARCHED = ['vendors.name', 'vendors.code'];

export function vendorHandlers({ db, now, settingsCipher }: ServerContext): VendorHandlers {
  return {
    listVendors: async ({ query }) => {
      let vendors = db.selectFrom('vendors').selectAll();
      if (query.search) vendors = vendors.where(containsAnyIgnoreCase(SEARCHED, query.search));
      const { rows, page } = await fetchPage(db, vendors, query, listOptions(VENDOR_COLUMNS));
      return { content: rows.map(toVendor), page };
    },

    listPlantVendors: async ({ plant, query }) => {
      let vendors = db
        .selectFrom('vendors')
        .leftJoin('plant_vendors as configured', (join) =>
          join
            .onRef('configured.vendor_uuid', '=', 'vendors.vendor_uuid')
            .on('configured.plant_uuid', '=', plant.plant_uuid),
        )
        .selectAll('vendors')
        .select(['configured.settings', 'configured.configured_at']);
      if (query.mode === 'config') vendors = vendors.where('configured.plant_uuid', 'is not', null);
      if (query.mode === 'not_config') vendors = vendors.where('configured.plant_uuid', 'is', null);
      if (query.search) vendors = vendors.where(containsAnyIgnoreCase(SEARCHED, query.search));
      const { rows, page } = await fetchPage(db, vendors, query, listOptions(PLANT_VENDOR_COLUMNS));
      return {
        content: rows.map(({ settings, configured_at, ...vendor }) =>
          toPlantVendor(
            toVendor(vendor),
            settings !== null && configured_at !== null ? { settings, configured_at } : null,
          ),
        ),
        page,
      };
    },

    configurePlantVendor: async ({ plant, params, body }) => {
      const vendor = await findVendorOrThrow(db, params.vendorUuid);
      // One transaction: kept secrets are read from the configuration being replaced.
      const saved = await inTransaction(db, async (trx) => {
        const current = await findConfiguration(trx, plant.plant_uuid, vendor.vendorUuid);
        const stored = current ? storedSettingsOf(parseJsonObject(current.settings)) : {};
        const settings = sealSecrets(
          vendor,
          plant.plant_uuid,
          resolveSettings(vendor, stored, body.settings),
          settingsCipher,
        );
        return saveConfiguration(trx, plant.plant_uuid, vendor.vendorUuid, settings, nowIso(now));
      });
      return toPlantVendor(vendor, saved);
    },

    unconfigurePlantVendor: async ({ plant, params }) => {
      const vendor = await findVendorOrThrow(db, params.vendorUuid);
      const removed = await removeConfiguration(db, plant.plant_uuid, vendor.vendorUuid);
      if (!removed) {
        throw notFound(`Vendor ${vendor.code} is not configured for plant ${plant.plant_uuid}`);
      }
      return undefined;
    },
  };
}
