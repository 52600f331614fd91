import type { QueryClient, QueryKey } from '@tanstack/vue-query';
import type { RouteId } from '../../api/routes.ts';
import { apiQueryKey } from './queryClient.ts';

/**
 * Which cached answers a successful change makes old: the lists and records that show what the
 * route created, changed or deleted. A key is a prefix (TanStack matches the objects of a key
 * partially), so one plant's `listDevices` key covers every page, sort and search of its table.
 */

/** The path parameters of a mutating route's input (the only part the map reads). */
interface MutationInput {
  params?: Readonly<Record<string, string>>;
}

/** The answers of `route` for one plant, whatever else their input says. */
const ofPlant = (route: RouteId, input: MutationInput): QueryKey => [
  ...apiQueryKey(route),
  { params: { plantUuid: input.params?.plantUuid } },
];

/** Every table and record of one plant's devices and sensors (each shows the other's names). */
function plantItems(input: MutationInput): QueryKey[] {
  return (['listDevices', 'listSensors', 'getDevice', 'getSensor'] as const).map((route) =>
    ofPlant(route, input),
  );
}

/** The plant lists: the plants table and the fleet (its summaries, and its totals). */
const plantLists: QueryKey[] = [apiQueryKey('listPlants'), apiQueryKey('listPlantSummaries')];

/** The keys a successful call of `route` with `input` makes old; none for a route that reads. */
export function keysChangedBy(route: RouteId, input: MutationInput = {}): QueryKey[] {
  switch (route) {
    case 'createPlant':
    case 'deletePlant':
      return plantLists;
    case 'updatePlant':
      return [...plantLists, ofPlant('getPlant', input)];
    case 'createDevice':
    case 'updateDevice':
    case 'deleteDevice':
      return [...plantItems(input), apiQueryKey('listPlantSummaries')];
    case 'createSensor':
    case 'updateSensor':
    case 'deleteSensor':
      // The sensor freshness and live readings of the plant list its sensors too.
      return [
        ...plantItems(input),
        ['sensorStatuses', input.params?.plantUuid],
        ['liveReadings', input.params?.plantUuid],
        apiQueryKey('listPlantSummaries'),
      ];
    case 'configurePlantVendor':
    case 'unconfigurePlantVendor':
      return [ofPlant('listPlantVendors', input)];
    case 'createSensorType':
    case 'updateSensorType':
    case 'deleteSensorType':
      return [apiQueryKey('listSensorTypes'), apiQueryKey('getSensorType')];
    case 'createDeviceType':
    case 'updateDeviceType':
    case 'deleteDeviceType':
      return [apiQueryKey('listDeviceTypes'), apiQueryKey('getDeviceType')];
    case 'createLoadSignature':
    case 'updateLoadSignature':
    case 'deleteLoadSignature':
      return [apiQueryKey('listLoadSignatures'), apiQueryKey('getLoadSignature')];
    default:
      return [];
  }
}

/**
 * Marks what the change made old; the queries on screen read again at once, the others when a
 * screen next shows them. Not awaited by callers: the change is done when the server said so.
 */
export function invalidateAfter(
  client: QueryClient,
  route: RouteId,
  input?: MutationInput,
): Promise<void> {
  return Promise.all(
    keysChangedBy(route, input).map((queryKey) => client.invalidateQueries({ queryKey })),
  ).then(() => undefined);
}
