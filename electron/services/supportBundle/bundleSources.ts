import { PAGE_SIZE_MAX } from '../../../api/schemas/common.ts';
import { routes } from '../../../api/routes.ts';
import { summarizeDataHealth } from '../../../server/domain/dataHealth/summary.ts';
import type { ApiClient } from '../api/apiClient.ts';
import { allPages, isNotServed } from '../monitor/monitorSources.ts';
import type { BundleSources, Part } from './bundleFiles.ts';

/**
 * A plant's part of a support bundle, read from the server with the session's client: the model
 * (plant, devices, sensors, vendors), sensor statuses and data health. The last two are
 * extensions of ours: a server with only the specification's routes (404) still gives a bundle,
 * with a file saying what was not available.
 */

const DATA_HEALTH_PATH = routes.getDataHealth.path;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
    // The per-sensor summary (coverage, gaps, issues), not 90 days of figures per sensor.
    part(
      async () => summarizeDataHealth(await client.getDataHealth({ params }, options)),
      DATA_HEALTH_PATH,
    ),
  ]);
  return { plant, devices, sensors, vendors, sensorStatuses, dataHealth };
}
