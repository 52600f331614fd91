import { describe, expect, test } from 'vitest';
import type { QueryKey } from '@tanstack/vue-query';
import { invalidateAfter, keysChangedBy } from '../../../renderer/src/invalidation.ts';
import {
  apiQueryKey,
  createAppQueryClient,
  hostQueryKey,
} from '../../../renderer/src/queryClient.ts';

/**
 * Which cached answers a change makes old: checked on a cache holding the answers the screens
 * keep (each plant's tables under every page and search, records, catalogs, the fleet), by which
 * of them a change invalidates.
 */

const P1 = { plantUuid: 'p1' };
const P2 = { plantUuid: 'p2' };
const LIST = { page: 0, size: 20, sort: 'name,asc' };

/** The answers a session would have cached, by a name the expectations use. */
const CACHED: Record<string, QueryKey> = {
  plants: apiQueryKey('listPlants', { query: LIST }),
  plantsSearched: apiQueryKey('listPlants', { query: { ...LIST, page: 3, search: 'Hof' } }),
  fleet: apiQueryKey('listPlantSummaries', { query: { ...LIST, sort: 'status,desc' } }),
  fleetTotals: [...apiQueryKey('listPlantSummaries'), 'every page'],
  plant1: apiQueryKey('getPlant', { params: P1 }),
  plant2: apiQueryKey('getPlant', { params: P2 }),
  devices1: apiQueryKey('listDevices', {
    params: P1,
    query: { ...LIST, includeRelationships: true },
  }),
  devices2: apiQueryKey('listDevices', { params: P2, query: LIST }),
  device1: apiQueryKey('getDevice', { params: { ...P1, deviceUuid: 'd1' } }),
  sensors1: apiQueryKey('listSensors', { params: P1, query: { ...LIST, sort: 'createdAt,asc' } }),
  sensors2: apiQueryKey('listSensors', { params: P2, query: LIST }),
  statuses1: ['sensorStatuses', 'p1', false],
  live1: ['liveReadings', 'p1', 'Europe/Rome'],
  vendors1: apiQueryKey('listPlantVendors', { params: P1, query: { ...LIST, mode: 'config' } }),
  vendors2: apiQueryKey('listPlantVendors', { params: P2, query: LIST }),
  sensorTypes: apiQueryKey('listSensorTypes', { query: LIST }),
  deviceTypes: apiQueryKey('listDeviceTypes', { query: LIST }),
  loadSignatures: apiQueryKey('listLoadSignatures', { query: LIST }),
  dataTypes: apiQueryKey('listDataTypesCollects', { query: LIST }),
  production1: apiQueryKey('dailyProduction', { params: P1 }),
  alerts: hostQueryKey('alerts.state'),
};

/** The names of the cached answers a call of `route` with `input` leaves invalidated. */
async function invalidatedBy(
  route: Parameters<typeof keysChangedBy>[0],
  input?: Parameters<typeof keysChangedBy>[1],
): Promise<string[]> {
  const client = createAppQueryClient();
  for (const key of Object.values(CACHED)) client.setQueryData(key, 'cached');
  await invalidateAfter(client, route, input);
  return Object.entries(CACHED)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();
}

describe('what a change invalidates', () => {
  test('a plant created or deleted: the plant lists and the fleet', async () => {
    const lists = ['fleet', 'fleetTotals', 'plants', 'plantsSearched'];
    expect(await invalidatedBy('createPlant')).toEqual(lists);
    expect(await invalidatedBy('deletePlant', { params: P1 })).toEqual(lists);
  });

  test('a plant updated: also that plant, not another', async () => {
    expect(await invalidatedBy('updatePlant', { params: P1 })).toEqual([
      'fleet',
      'fleetTotals',
      'plant1',
      'plants',
      'plantsSearched',
    ]);
  });

  test("a device: that plant's device and sensor tables and records, and the fleet", async () => {
    const expected = ['device1', 'devices1', 'fleet', 'fleetTotals', 'sensors1'];
    for (const route of ['createDevice', 'updateDevice', 'deleteDevice'] as const) {
      expect(await invalidatedBy(route, { params: { ...P1, deviceUuid: 'd1' } })).toEqual(expected);
    }
  });

  test("a sensor: also that plant's freshness and live readings", async () => {
    expect(await invalidatedBy('updateSensor', { params: { ...P1, sensorUuid: 's1' } })).toEqual([
      'device1',
      'devices1',
      'fleet',
      'fleetTotals',
      'live1',
      'sensors1',
      'statuses1',
    ]);
  });

  test("a vendor configuration: that plant's vendor lists only", async () => {
    expect(
      await invalidatedBy('configurePlantVendor', { params: { ...P1, vendorUuid: 'v1' } }),
    ).toEqual(['vendors1']);
    expect(
      await invalidatedBy('unconfigurePlantVendor', { params: { ...P2, vendorUuid: 'v1' } }),
    ).toEqual(['vendors2']);
  });

  test('a catalog entry: its own catalog only', async () => {
    expect(await invalidatedBy('createSensorType')).toEqual(['sensorTypes']);
    expect(await invalidatedBy('updateDeviceType', { params: { deviceTypeUuid: 't1' } })).toEqual([
      'deviceTypes',
    ]);
    expect(
      await invalidatedBy('deleteLoadSignature', { params: { loadSignatureUuid: 'l1' } }),
    ).toEqual(['loadSignatures']);
  });

  test('a read changes nothing', async () => {
    expect(keysChangedBy('listPlants')).toEqual([]);
    expect(await invalidatedBy('getPlant', { params: P1 })).toEqual([]);
  });
});
