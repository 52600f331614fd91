import { ref, shallowRef } from 'vue';
import type { DataTypesCollect, DeviceType, SensorType } from '../../../api/schemas/catalogs.ts';
import type { Device, LoadSignature, Sensor } from '../../../api/schemas/relationships.ts';
import type { Vendor } from '../../../api/schemas/vendors.ts';
import { PAGE_SIZE_MAX } from '../../../api/schemas/common.ts';
import { useBridge } from '../bridge.ts';
import { translate } from '../i18n.ts';
import { errorMessage } from './useFormErrors.ts';
import type { Page } from './useServerTable.ts';

/**
 * Choices for the selects of the device and sensor forms: the catalogs (sensor types, data
 * types, device types, load signatures, vendors) and a plant's own devices and sensors, read
 * through the bridge. Each list is read whole, page after page of the API's largest page size,
 * so a select never misses an entry that sits on a later page.
 */

export type CatalogName =
  'sensorTypes' | 'dataTypes' | 'deviceTypes' | 'loadSignatures' | 'vendors';

/** At most this many pages are read (10,000 entries): a guard against a server that loops. */
const MAX_PAGES = 50;

/** Reads every page of a list route, in order. */
export async function fetchAllPages<Row>(
  fetchPage: (page: number, size: number) => Promise<Page<Row>>,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await fetchPage(page, PAGE_SIZE_MAX);
    rows.push(...answer.content);
    if (answer.content.length === 0 || page + 1 >= answer.page.totalPages) break;
  }
  return rows;
}

/** "Power (W)": how a data type is shown everywhere, always with its unit. */
export function dataTypeLabel(dataType: Pick<DataTypesCollect, 'name' | 'unit'>): string {
  return dataType.unit ? `${dataType.name} (${dataType.unit})` : dataType.name;
}

/** The data types a sensor of this type may collect, in the catalog's order. */
export function allowedDataTypes(
  sensorType: Pick<SensorType, 'dataTypesCollectUuids'> | undefined,
  dataTypes: readonly DataTypesCollect[],
): DataTypesCollect[] {
  if (!sensorType) return [];
  const allowed = new Set(sensorType.dataTypesCollectUuids.map((uuid) => uuid.toLowerCase()));
  return dataTypes.filter((dataType) => allowed.has(dataType.dataTypesCollectUuid.toLowerCase()));
}

/** What a catalog that could not be read says, by its key. */
const LOAD_FAILED: Readonly<Record<CatalogName, string>> = {
  sensorTypes: 'catalogs.kinds.sensorType.loadFailed',
  dataTypes: 'catalogs.kinds.dataType.loadFailed',
  deviceTypes: 'catalogs.kinds.deviceType.loadFailed',
  loadSignatures: 'catalogs.kinds.loadSignature.loadFailed',
  vendors: 'catalogs.vendorsLoadFailed',
};

export function useCatalogOptions() {
  const bridge = useBridge();
  const sensorTypes = shallowRef<SensorType[]>([]);
  const dataTypes = shallowRef<DataTypesCollect[]>([]);
  const deviceTypes = shallowRef<DeviceType[]>([]);
  const loadSignatures = shallowRef<LoadSignature[]>([]);
  const vendors = shallowRef<Vendor[]>([]);
  const loading = ref(false);
  /** The first failure's message; the lists that did load stay usable. */
  const error = ref<string | null>(null);

  const loaders: Record<CatalogName, () => Promise<void>> = {
    sensorTypes: async () => {
      sensorTypes.value = await fetchAllPages((page, size) =>
        bridge.call('listSensorTypes', { query: { page, size, sort: 'name,asc' } }),
      );
    },
    dataTypes: async () => {
      dataTypes.value = await fetchAllPages((page, size) =>
        bridge.call('listDataTypesCollects', { query: { page, size, sort: 'name,asc' } }),
      );
    },
    deviceTypes: async () => {
      deviceTypes.value = await fetchAllPages((page, size) =>
        bridge.call('listDeviceTypes', { query: { page, size, sort: 'name,asc' } }),
      );
    },
    loadSignatures: async () => {
      loadSignatures.value = await fetchAllPages((page, size) =>
        bridge.call('listLoadSignatures', { query: { page, size, sort: 'name,asc' } }),
      );
    },
    vendors: async () => {
      vendors.value = await fetchAllPages((page, size) =>
        bridge.call('listVendors', { query: { page, size, sort: 'name,asc' } }),
      );
    },
  };
  /** Loads the named catalogs side by side; a failure is kept in `error`, never thrown. */
  async function load(names: readonly CatalogName[]): Promise<void> {
    loading.value = true;
    error.value = null;
    const results = await Promise.allSettled(names.map((name) => loaders[name]()));
    results.forEach((result, index) => {
      if (result.status === 'rejected' && error.value === null) {
        error.value = errorMessage(result.reason, translate(LOAD_FAILED[names[index]!]));
      }
    });
    loading.value = false;
  }

  return {
    sensorTypes,
    dataTypes,
    deviceTypes,
    loadSignatures,
    vendors,
    loading,
    error,
    load,
  };
}

/** Every device of a plant (with relationships), for selects and link dialogs. */
export function fetchPlantDevices(plantUuid: string): Promise<Device[]> {
  const bridge = useBridge();
  return fetchAllPages((page, size) =>
    bridge.call('listDevices', {
      params: { plantUuid },
      query: { page, size, sort: 'name,asc', includeRelationships: true },
    }),
  );
}

/** Every sensor of a plant (with relationships), for the device form's linked sensors. */
export function fetchPlantSensors(plantUuid: string): Promise<Sensor[]> {
  const bridge = useBridge();
  return fetchAllPages((page, size) =>
    bridge.call('listSensors', {
      params: { plantUuid },
      query: { page, size, sort: 'name,asc', includeRelationships: true },
    }),
  );
}
