import { DateTime } from 'luxon';
import { PAGE_SIZE_MAX } from '../../../api/schemas/common.ts';
import type { ApiClient } from '../api/apiClient.ts';
import { isNotServed, siteOf } from '../monitor/monitorSources.ts';
import { bucketsOf, type AcceptanceInput } from './acceptanceChecks.ts';

/**
 * What the re-check reads of a plant: its PV settings, its production and consumption power
 * over the window (the specification's sensor-history routes, hourly), and each sensor's
 * coverage where the server has the sensor-statuses extension.
 */

/** The sensor-history routes' local date-time format. */
const LOCAL_MINUTE = "yyyy-MM-dd'T'HH:mm";

export type AcceptanceReadings = Omit<AcceptanceInput, 'openAlerts' | 'checkedAtMs'>;

export async function readAcceptanceInput(
  client: ApiClient,
  plantUuid: string,
  window: AcceptanceInput['window'],
  signal?: AbortSignal,
): Promise<AcceptanceReadings> {
  const options = { signal };
  const params = { plantUuid };
  const plant = await client.getPlant({ params }, options);
  const sensors = await client.listSensors({ params, query: { size: PAGE_SIZE_MAX } }, options);
  const flows = new Set(sensors.content.map((sensor) => sensor.flow));
  const zone = plant.location.timezone;
  // Whole local hours around the window: the judgement weighs buckets by their overlap with it.
  const start = DateTime.fromMillis(window.startMs, { zone }).startOf('hour');
  const endExact = DateTime.fromMillis(window.endMs, { zone });
  const end = endExact.equals(endExact.startOf('hour'))
    ? endExact
    : endExact.startOf('hour').plus({ hours: 1 });
  const query = {
    startDate: start.toFormat(LOCAL_MINUTE),
    endDate: end.toFormat(LOCAL_MINUTE),
    granularity: 'hours' as const,
  };
  const production = flows.has('PRODUCTION')
    ? bucketsOf(await client.historyProduction({ params, query }, options))
    : null;
  // Consumption is metered, or the balance of production, grid and storage when the grid is.
  const consumption =
    flows.has('CONSUMPTION') || flows.has('GRID')
      ? bucketsOf(await client.historyConsumption({ params, query }, options))
      : null;
  let coverage: AcceptanceReadings['sensors'] = null;
  try {
    const statuses = await client.listSensorStatuses({ params }, options);
    coverage = statuses.sensors.map((sensor) => ({
      name: sensor.name,
      flow: sensor.flow,
      coverage: sensor.coverage24h,
    }));
  } catch (error) {
    if (!isNotServed(error)) throw error;
  }
  return { window, site: siteOf(plant), production, consumption, sensors: coverage };
}
