import { forEachLimited, PER_PLANT_CONCURRENCY } from '../../../api/concurrency.ts';
import { PAGE_SIZE_MAX } from '../../../api/schemas/common.ts';
import type { PlantSummary } from '../../../api/schemas/fleet.ts';
import type { Plant } from '../../../api/schemas/plants.ts';
import type { PvSite } from '../../../server/domain/index.ts';
import type { ApiClient } from '../api/apiClient.ts';
import { ApiError } from '../api/apiError.ts';
import type { PlantSnapshot } from './alertRules.ts';

/**
 * What the monitor reads of an environment in one cycle. With the fleet extensions: the plant
 * summaries (status, health) and each plant's sensor statuses. Against a server that has only
 * the specification's routes: the plant list and each plant's PV health, so the sensor rules
 * cannot be judged there (and neither open nor clear).
 */

export type SourceKind = 'extension' | 'specification';

export interface Gathered {
  source: SourceKind;
  snapshots: PlantSnapshot[];
  /** Every plant of the environment was listed (its alerts of other plants may clear). */
  complete: boolean;
  /** Plants whose figures could not be read, in words. */
  problems: string[];
}

/** A route the server does not serve: the extension is absent there. */
export const isNotServed = (error: unknown) =>
  error instanceof ApiError &&
  error.kind === 'api' &&
  (error.status === 404 || error.status === 405);

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Every page of a list, read one after the other. */
export async function allPages<T>(
  read: (page: number) => Promise<{ content: T[]; page: { totalPages: number } }>,
): Promise<T[]> {
  const first = await read(0);
  const rest: T[][] = [];
  for (let page = 1; page < first.page.totalPages; page++) rest.push((await read(page)).content);
  return [first.content, ...rest].flat();
}

export function siteOf(plant: Pick<Plant, 'location' | 'pv'>): PvSite | null {
  if (!plant.pv) return null;
  return {
    latitudeDeg: plant.location.latitude,
    longitudeDeg: plant.location.longitude,
    altitudeM: plant.location.altitudeM ?? 0,
    pv: {
      peakPowerKw: plant.pv.peakPowerKw,
      tiltDeg: plant.pv.tiltDeg,
      azimuthDeg: plant.pv.azimuthDeg,
      lossesPercent: plant.pv.lossesPercent,
    },
  };
}

/**
 * Reads every plant of the environment; `source` says which routes to use (null: try the
 * extension, fall back on 404). Sensor statuses and PV health are read plant by plant with at
 * most PER_PLANT_CONCURRENCY requests in flight.
 */
export async function gatherSnapshots(
  client: ApiClient,
  source: SourceKind | null,
  signal?: AbortSignal,
): Promise<Gathered> {
  const options = { signal };
  const plants = await allPages((page) =>
    client.listPlants({ query: { page, size: PAGE_SIZE_MAX } }, options),
  );
  let summaries: Map<string, PlantSummary> | null = null;
  if (source !== 'specification') {
    try {
      const list = await allPages((page) =>
        client.listPlantSummaries({ query: { page, size: PAGE_SIZE_MAX } }, options),
      );
      summaries = new Map(list.map((summary) => [summary.plantUuid, summary]));
    } catch (error) {
      if (!isNotServed(error)) throw error;
    }
  }
  const problems: string[] = [];
  const snapshots: PlantSnapshot[] = plants.map((plant) => ({
    plantUuid: plant.plantUuid,
    name: plant.name,
    timezone: plant.location.timezone,
    site: siteOf(plant),
    health: null,
    sensors: null,
  }));

  if (summaries) {
    for (const snapshot of snapshots) {
      const summary = summaries.get(snapshot.plantUuid);
      if (summary?.status) {
        snapshot.health = {
          status: summary.status,
          performancePercent: summary.performancePercent,
        };
      }
    }
    await forEachLimited(
      snapshots,
      PER_PLANT_CONCURRENCY,
      (snapshot) =>
        client.listSensorStatuses({ params: { plantUuid: snapshot.plantUuid } }, options),
      (result, snapshot) => {
        if (result.status === 'fulfilled') snapshot.sensors = result.value.sensors;
        else problems.push(`${snapshot.name}: ${describe(result.reason)}`);
      },
      signal,
    );
  } else {
    await forEachLimited(
      snapshots.filter((snapshot) => snapshot.site !== null),
      PER_PLANT_CONCURRENCY,
      (snapshot) => client.pvHealth({ params: { plantUuid: snapshot.plantUuid } }, options),
      (result, snapshot) => {
        if (result.status === 'fulfilled') {
          snapshot.health = {
            status: result.value.status,
            performancePercent: result.value.performancePercent,
          };
        } else problems.push(`${snapshot.name}: ${describe(result.reason)}`);
      },
      signal,
    );
  }
  return {
    source: summaries ? 'extension' : 'specification',
    snapshots,
    complete: true,
    problems,
  };
}
