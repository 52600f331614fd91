import {
  DATA_HEALTH_LIST_LIMIT,
  formatLocalDate,
  type DataHealthResolution,
  type PlantDataHealth,
  type SensorDataHealth,
  type SensorFlow,
} from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { rowsOf } from '../../db/fastQuery.ts';
import type { PlantRow } from '../../db/tables.ts';
import { createSolarPositionCalculator } from '../../domain/index.ts';
import { assessSensorHealth, type IsDaylight, type Span } from '../../domain/dataHealth/index.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import {
  formatLocal,
  HOUR_MS,
  localDateOf,
  localDays,
} from '../../measurements/metrics/localTime.ts';
import { readingSensorsOf } from '../../measurements/readingSensors.ts';
import { byName, type SensorFacts as FleetSensorFacts } from '../fleet/sensorStatuses.ts';
import { dataHealthDays } from './dataHealthRange.ts';
import { rollupPart, sensorSeries } from './sensorSeries.ts';

type DataHealthHandlers = Pick<RouteHandlers, 'getDataHealth'>;

/** The data-health map of a plant: the rules of server/domain/dataHealth over its readings. */
export function dataHealthHandlers({ db, now }: ServerContext): DataHealthHandlers {
  return {
    getDataHealth: async ({ plant, query }) => {
      const evaluatedAt = now();
      const zone = plant.timezone;
      const { first, last } = dataHealthDays(zone, query.startDate, query.endDate, evaluatedAt);
      return plantDataHealth(db, plant, localDays(zone, first, last), evaluatedAt);
    },
  };
}

interface SensorFacts extends FleetSensorFacts {
  ratedPowerW: number | null;
}

export async function plantDataHealth(
  db: Db,
  plant: Readonly<PlantRow>,
  days: readonly Span[],
  evaluatedAt: Date,
): Promise<PlantDataHealth> {
  const zone = plant.timezone;
  const nowMs = evaluatedAt.getTime();
  const firstDay = days[0]!;
  const lastDay = days[days.length - 1]!;
  // Days to come have no coverage yet; today counts up to now.
  const elapsed = days.map((day) => ({ start: day.start, end: Math.min(day.end, nowMs) }));
  const range = { start: firstDay.start, end: Math.min(lastDay.end, nowMs) };
  const sensors = await sensorsOf(db, plant.plant_uuid);
  const readingSensors = await readingSensorsOf(
    db,
    sensors.map((sensor) => sensor.sensorUuid),
  );
  const isDaylight = daylightOf(plant);
  const plantScaleW = plant.pv_peak_power_kw === null ? null : plant.pv_peak_power_kw * 1000;
  const results: SensorDataHealth[] = [];
  for (const sensor of sensors) {
    const dataType = readingSensors.get(sensor.sensorUuid)?.dataType ?? null;
    const intervalMs = sensor.samplingIntervalSeconds * 1000;
    const series =
      range.end > range.start
        ? await sensorSeries(db, sensor.sensorUuid, range.start, range.end)
        : { takenAt: new Float64Array(), values: new Float64Array(), before: undefined };
    const rollups =
      range.end > range.start
        ? await rollupPart(db, sensor.sensorUuid, series, range.start, range.end)
        : undefined;
    const health = assessSensorHealth({
      dataType,
      flow: sensor.flow,
      intervalMs,
      samples: series,
      before: series.before,
      range,
      days: elapsed.filter((day) => day.end > day.start),
      isDaylight,
      ratingW: sensor.ratedPowerW,
      plantScaleW: sensor.flow === 'STORAGE' || sensor.flow === 'AMBIENT' ? null : plantScaleW,
      ...(rollups && { rollups }),
    });
    let next = 0;
    const resolution: (DataHealthResolution | null)[] = [];
    const coverage = elapsed.map((day) => {
      if (day.end <= day.start) {
        resolution.push(null);
        return null;
      }
      resolution.push(health.onRollups[next] ? '15min' : 'raw');
      return health.coverage[next++] ?? 0;
    });
    const at = (ms: number) => formatLocal(zone, ms);
    results.push({
      sensorUuid: sensor.sensorUuid,
      name: sensor.name,
      deviceUuid: sensor.deviceUuid,
      flow: sensor.flow,
      dataType,
      samplingIntervalSeconds: sensor.samplingIntervalSeconds,
      coverage,
      resolution,
      // At the range's end when no raw reading is left in it: nothing assessed by value.
      rawFrom: rollups ? formatLocal(zone, Math.min(rollups.rawFrom, range.end)) : null,
      coverageTotal: range.end > range.start ? health.coverageTotal : 0,
      gapCount: health.gaps.length,
      gaps: latest(health.gaps).map((gap) => ({
        start: at(gap.start),
        end: at(gap.end),
        durationSeconds: gap.durationMs / 1000,
      })),
      counterIssueCount: health.counterIssues.length,
      counterIssues: latest(health.counterIssues).map((issue) => ({ ...issue, at: at(issue.at) })),
      frozenCount: health.frozen.length,
      frozen: latest(health.frozen).map((period) => ({
        start: at(period.start),
        end: at(period.end),
        value: period.value,
        countedSeconds: period.countedMs / 1000,
      })),
      suspicions: health.suspicions,
    });
  }
  return {
    plantUuid: plant.plant_uuid,
    timezone: zone,
    evaluatedAt: evaluatedAt.toISOString(),
    from: formatLocal(zone, firstDay.start),
    to: formatLocal(zone, lastDay.end),
    days: days.map((day, index) => ({
      date: formatLocalDate(localDateOf(zone, day.start)),
      hours: (day.end - day.start) / HOUR_MS,
      elapsedHours: Math.max(0, elapsed[index]!.end - day.start) / HOUR_MS,
    })),
    sensors: results,
  };
}

const latest = <T>(items: readonly T[]): T[] => items.slice(-DATA_HEALTH_LIST_LIMIT);

/** Sun above the horizon at the plant (the sun's disc, refraction included). */
function daylightOf(plant: Readonly<PlantRow>): IsDaylight {
  const position = createSolarPositionCalculator({
    latitudeDeg: plant.latitude,
    longitudeDeg: plant.longitude,
    elevationM: plant.altitude_m ?? 0,
  });
  return (ms) => position(ms).elevationDeg > 0;
}

async function sensorsOf(db: Db, plantUuid: string): Promise<SensorFacts[]> {
  const rows = await rowsOf(
    db,
    db
      .selectFrom('sensors as s')
      .leftJoin('devices as d', 'd.device_uuid', 's.device_uuid')
      .select([
        's.sensor_uuid',
        's.name',
        's.device_uuid',
        's.flow',
        's.sampling_interval_seconds',
        'd.rated_power_w',
      ])
      .where('s.plant_uuid', '=', plantUuid)
      .compile(),
  );
  return rows
    .map((row) => ({
      sensorUuid: row.sensor_uuid,
      name: row.name,
      deviceUuid: row.device_uuid,
      flow: row.flow as SensorFlow,
      samplingIntervalSeconds: row.sampling_interval_seconds,
      ratedPowerW: row.rated_power_w,
    }))
    .sort(byName);
}
