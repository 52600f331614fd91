import { PAGE_SIZE_MAX } from '../../../api/schemas/common.ts';
import { routes, type RouteId } from '../../../api/routes.ts';
import type { RouteInput } from '../../../api/routeInput.ts';
import type { ApiClient } from '../api/apiClient.ts';
import { allPages, isNotServed } from '../monitor/monitorSources.ts';
import type { BundleSources, Part } from './bundleFiles.ts';

/**
 * A plant's part of a support bundle, read from the server with the session's client: the model
 * (plant, devices, sensors, vendors), sensor statuses and data health. The last two are
 * extensions of ours: a server with only the specification's routes (404) still gives a bundle,
 * with a file saying what was not available.
 */

/** The data-health extension's path (its route is added to the table by the data-health work). */
export const DATA_HEALTH_PATH = '/plants/{plantUuid}/data-health';

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The route of the table that serves `path` by GET, whatever its id; undefined without one. */
export function routeServing(path: string): RouteId | undefined {
  return (Object.keys(routes) as RouteId[]).find(
    (id) => routes[id].method === 'GET' && routes[id].path === path,
  );
}

async function part<T>(read: () => Promise<T>, path: string): Promise<Part<T>> {
  try {
    return { available: true, value: await read() };
  } catch (error) {
    if (isNotServed(error)) {
      return { available: false, reason: `the server does not serve GET ${path} (extension)` };
    }
    return { available: false, reason: describe(error) };
  }
}

export async function readPlantSources(
  client: ApiClient,
  plantUuid: string,
  signal?: AbortSignal,
  dataHealthRoute: RouteId | undefined = routeServing(DATA_HEALTH_PATH),
): Promise<NonNullable<BundleSources['plant']>> {
  const options = { signal };
  const params = { plantUuid };
  // The plant itself must be readable: a bundle of a plant nobody can see is no help.
  const plant = await client.getPlant({ params }, options);
  const [devices, sensors, vendors, sensorStatuses, dataHealth] = await Promise.all([
    part(
      () =>
        allPages((page) =>
          client.listDevices({ params, query: { page, size: PAGE_SIZE_MAX } }, options),
        ),
      '/plants/{plantUuid}/devices',
    ),
    part(
      () =>
        allPages((page) =>
          client.listSensors({ params, query: { page, size: PAGE_SIZE_MAX } }, options),
        ),
      '/plants/{plantUuid}/sensors',
    ),
    part(
      () =>
        allPages((page) =>
          client.listPlantVendors({ params, query: { page, size: PAGE_SIZE_MAX } }, options),
        ),
      '/plants/{plantUuid}/vendors',
    ),
    part(
      () => client.listSensorStatuses({ params }, options),
      '/plants/{plantUuid}/sensor-statuses',
    ),
    readDataHealth(client, plantUuid, dataHealthRoute, signal),
  ]);
  return { plant, devices, sensors, vendors, sensorStatuses, dataHealth };
}

async function readDataHealth(
  client: ApiClient,
  plantUuid: string,
  route: RouteId | undefined,
  signal?: AbortSignal,
): Promise<Part<unknown>> {
  if (route === undefined) {
    return { available: false, reason: 'this PlantDesk version does not read data health' };
  }
  const input = { params: { plantUuid } } as unknown as RouteInput<RouteId>;
  return part(() => client.call(route, input, { signal }), DATA_HEALTH_PATH);
}
