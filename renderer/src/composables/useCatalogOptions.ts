import { computed, toValue, type MaybeRefOrGetter } from 'vue';
import type { DataTypesCollect, DeviceType, SensorType } from '../../../api/schemas/catalogs.ts';
import type { Device, LoadSignature, Sensor } from '../../../api/schemas/relationships.ts';
import type { Vendor } from '../../../api/schemas/vendors.ts';
import { useBridge } from '../bridge.ts';
import { translate } from '../i18n.ts';
import { fetchAllPages, useWholeList, type WholeListInput } from './useWholeList.ts';

/**
 * Choices for the selects of the device and sensor forms: the catalogs (sensor types, data
 * types, device types, load signatures, vendors) and a plant's own devices and sensors, each
 * read whole (`useWholeList`) as a query of the shared cache, so a change of a catalog or of the
 * plant's devices and sensors reads the lists on screen again by itself.
 */

export type CatalogName =
  'sensorTypes' | 'dataTypes' | 'deviceTypes' | 'loadSignatures' | 'vendors';

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

type CatalogRoute =
  | 'listSensorTypes'
  | 'listDataTypesCollects'
  | 'listDeviceTypes'
  | 'listLoadSignatures'
  | 'listVendors';

/** Every catalog is offered by name. */
const BY_NAME: WholeListInput = { query: { sort: 'name,asc' } };

/**
 * The named catalogs (the others stay empty and are not asked for). `error` is the first
 * failure's message; the lists that did load stay usable. `options` as `useWholeList`'s.
 *
 *   const catalogs = useCatalogOptions(['deviceTypes']);
 *   catalogs.deviceTypes.value // → every device type, by name
 */
export function useCatalogOptions(
  names: readonly CatalogName[],
  options: Parameters<typeof useWholeList>[3] = {},
) {
  const list = <Route extends CatalogRoute>(route: Route, name: CatalogName) =>
    useWholeList(
      route,
      () => (names.includes(name) ? BY_NAME : null),
      () => translate(LOAD_FAILED[name]),
      options,
    );
  const lists = {
    sensorTypes: list('listSensorTypes', 'sensorTypes'),
    dataTypes: list('listDataTypesCollects', 'dataTypes'),
    deviceTypes: list('listDeviceTypes', 'deviceTypes'),
    loadSignatures: list('listLoadSignatures', 'loadSignatures'),
    vendors: list('listVendors', 'vendors'),
  };
  const named = names.map((name) => lists[name]);

  return {
    sensorTypes: computed<SensorType[]>(() => lists.sensorTypes.items.value ?? []),
    dataTypes: computed<DataTypesCollect[]>(() => lists.dataTypes.items.value ?? []),
    deviceTypes: computed<DeviceType[]>(() => lists.deviceTypes.items.value ?? []),
    loadSignatures: computed<LoadSignature[]>(() => lists.loadSignatures.items.value ?? []),
    vendors: computed<Vendor[]>(() => lists.vendors.items.value ?? []),
    loading: computed(() => named.some((list) => list.loading.value)),
    error: computed(() => named.find((list) => list.error.value)?.error.value ?? null),
    /** Reads the named catalogs again, side by side; never rejects. */
    async load(): Promise<void> {
      await Promise.all(named.map((list) => list.load()));
    },
  };
}

/** A plant's devices and sensors are offered by name, with their relationships. */
const PLANT_ITEMS_QUERY = { sort: 'name,asc', includeRelationships: true };

const plantItems = (plantUuid: string | null): WholeListInput | null =>
  plantUuid ? { params: { plantUuid }, query: PLANT_ITEMS_QUERY } : null;

/**
 * Every device of a plant (with relationships), for selects and link dialogs; null waits (a
 * form given its devices does not ask).
 */
export function usePlantDevices(
  plantUuid: MaybeRefOrGetter<string | null>,
  failureText: string | (() => string),
) {
  return useWholeList('listDevices', () => plantItems(toValue(plantUuid)), failureText);
}

/** Every sensor of a plant (with relationships), for the device form's linked sensors. */
export function usePlantSensors(
  plantUuid: MaybeRefOrGetter<string | null>,
  failureText: string | (() => string),
) {
  return useWholeList('listSensors', () => plantItems(toValue(plantUuid)), failureText);
}

/** Every device of a plant (with relationships), read once (a verification, a live reading). */
export function fetchPlantDevices(plantUuid: string): Promise<Device[]> {
  const bridge = useBridge();
  return fetchAllPages((page, size) =>
    bridge.call('listDevices', {
      params: { plantUuid },
      query: { ...PLANT_ITEMS_QUERY, page, size },
    }),
  );
}

/** Every sensor of a plant (with relationships), read once. */
export function fetchPlantSensors(plantUuid: string): Promise<Sensor[]> {
  const bridge = useBridge();
  return fetchAllPages((page, size) =>
    bridge.call('listSensors', {
      params: { plantUuid },
      query: { ...PLANT_ITEMS_QUERY, page, size },
    }),
  );
}
