import { toValue, watch, type MaybeRefOrGetter, type Ref } from 'vue';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import { translate } from '../i18n.ts';
import { useServerTable } from './useServerTable.ts';

/**
 * The server-side tables of a plant's devices and sensors (the plant's pages and the
 * commissioning wizard), each row with its relationships: a device's type, vendor, load
 * signature and sensors; a sensor's type, data types and device.
 */

type SortField = 'name' | 'createdAt';

/** The Type column of the tables (relationships read). */
export const deviceTypeName = (device: Device) => device.relationships?.deviceType.name;
export const sensorTypeName = (sensor: Sensor) => sensor.relationships?.sensorType.name;

export function useDevicesTable(plantUuid: MaybeRefOrGetter<string>, sortField: SortField) {
  return fromFirstPageOnPlantChange(
    plantUuid,
    useServerTable({
      route: 'listDevices',
      input: (query) => ({
        params: { plantUuid: toValue(plantUuid) },
        query: { ...query, includeRelationships: true },
      }),
      sortField,
      // Read when a load fails, so it is in the language of that moment.
      get failureText() {
        return translate('devices.list.loadFailed');
      },
    }),
  );
}

/** Another plant's list starts at its first page. */
function fromFirstPageOnPlantChange<Table extends { first: Ref<number> }>(
  plantUuid: MaybeRefOrGetter<string>,
  table: Table,
): Table {
  watch(
    () => toValue(plantUuid),
    () => (table.first.value = 0),
  );
  return table;
}

/**
 * A saved device or sensor read again with its relationships (a save answers without them, and
 * the caller's tables and checks want them); the record as saved when that read fails.
 */
export async function withRelationships<Item>(
  read: () => Promise<Item>,
  saved: Item,
): Promise<Item> {
  try {
    return await read();
  } catch {
    return saved;
  }
}

export function useSensorsTable(plantUuid: MaybeRefOrGetter<string>, sortField: SortField) {
  return fromFirstPageOnPlantChange(
    plantUuid,
    useServerTable({
      route: 'listSensors',
      input: (query) => ({
        params: { plantUuid: toValue(plantUuid) },
        query: { ...query, includeRelationships: true },
      }),
      sortField,
      get failureText() {
        return translate('sensors.list.loadFailed');
      },
    }),
  );
}
