import { formatLocalDate } from '../../api/index.ts';
import type { Db } from '../db/database.ts';
import type { PlantRow } from '../db/tables.ts';
import { pvSiteOf } from '../forecasts/pvSite.ts';
import { BUCKET_MS } from '../measurements/rollups.ts';
import { combineFlow } from '../measurements/metrics/flowMeasures.ts';
import { addDays, localDays, type TimeRange } from '../measurements/metrics/localTime.ts';
import { flowSensors, productionFlow } from '../measurements/metrics/plantFlows.ts';
import type { SensorQuarterRollup } from '../measurements/metrics/prefetchedRollups.ts';
import { loadPlantInputs, type PlantInputs } from './plantInputs.ts';
import type { HealthDay, PvHealthFacts, QuarterHourFacts } from './pvHealthAssessment.ts';
import type { HealthRange } from './pvHealthRange.ts';
import { quarterSkyOf } from './quarterSky.ts';

/**
 * Gathers, per quarter-hour of the range, what PV health weighs: production (rollups of the
 * production sensors, combined as the energy metrics combine them), its peak power (POWER
 * sensors' maxima, for clipping), plane-of-array irradiance (IRRADIANCE sensors), and the sun
 * and clear-sky energy from the plant's location and PV settings. The gathering itself reads
 * nothing: it works on a plant's inputs read beforehand (`plantInputs.ts`), for one plant as
 * for a page of them.
 */

/** Per bucket start: the sum of `pick` over the rollups of that bucket. */
function sumByBucket(
  rollups: readonly SensorQuarterRollup[],
  pick: (rollup: SensorQuarterRollup) => number,
): Map<number, number> {
  const sums = new Map<number, number>();
  for (const rollup of rollups) {
    sums.set(rollup.bucketStart, (sums.get(rollup.bucketStart) ?? 0) + pick(rollup));
  }
  return sums;
}

/** The producer devices' summed rating, W; null when one of them has none. */
function inverterLimitW(producerRatingsW: readonly (number | null)[]): number | null {
  if (producerRatingsW.length === 0) return null;
  if (producerRatingsW.some((rating) => !(rating !== null && rating > 0))) return null;
  return producerRatingsW.reduce<number>((sum, rating) => sum + rating!, 0);
}

/** A local day's quarter-hours (the last one shorter on a day of local mean time, before 1900). */
function quarterHoursOf(day: TimeRange): TimeRange[] {
  const quarters: TimeRange[] = [];
  for (let start = day.start; start < day.end; start += BUCKET_MS) {
    quarters.push({ start, end: Math.min(start + BUCKET_MS, day.end) });
  }
  return quarters;
}

/** The local days of `range` in the plant's zone, as one span. */
export function healthSpan(zone: string, range: HealthRange): TimeRange {
  const days = localDays(zone, range.first, range.last);
  return { start: days[0]!.start, end: days[days.length - 1]!.end };
}

/** One plant's facts, read for it alone. */
export async function gatherPvHealthFacts(
  db: Db,
  plant: Readonly<PlantRow>,
  range: HealthRange,
): Promise<PvHealthFacts> {
  const span = healthSpan(plant.timezone, range);
  const inputs = await loadPlantInputs(db, [plant.plant_uuid], { production: span });
  return pvHealthFactsFrom(plant, range, inputs.get(plant.plant_uuid)!);
}

/** The facts from the plant's inputs, whose rollups must cover `healthSpan` of the range. */
export function pvHealthFactsFrom(
  plant: Readonly<PlantRow>,
  range: HealthRange,
  inputs: PlantInputs,
): PvHealthFacts {
  const zone = plant.timezone;
  const days = localDays(zone, range.first, range.last);
  const quartersByDay = days.map(quarterHoursOf);
  const quarters = quartersByDay.flat();
  const span = { start: days[0]!.start, end: days[days.length - 1]!.end };
  const { rollups } = inputs;

  const flow = productionFlow(inputs.energySensors);
  const production = combineFlow(rollups.measureFlow(flow, quarters), (energyKwh) => energyKwh);
  const powerSensors = flowSensors(flow)
    .filter((sensor) => sensor.kind === 'POWER')
    .map((sensor) => sensor.sensorUuid);
  const peaks = sumByBucket(
    rollups.rollupsOf(powerSensors, span.start, span.end),
    (rollup) => rollup.maxValue,
  );

  const irradianceSensors = inputs.irradianceSensorUuids;
  const irradianceRollups = rollups.rollupsOf(irradianceSensors, span.start, span.end);
  const irradiationWs = sumByBucket(
    irradianceRollups,
    (rollup) => rollup.meanValue * rollup.coveredSeconds,
  );
  const irradiatedSeconds = sumByBucket(irradianceRollups, (rollup) => rollup.coveredSeconds);

  const sky = days.map((day, index) => quarterSkyOf(plant, day, quartersByDay[index]!));
  const skyOfQuarter = quartersByDay.flatMap((dayQuarters, day) =>
    dayQuarters.map((_, index) => ({ day: sky[day]!, index })),
  );

  const facts: QuarterHourFacts[] = quarters.map((quarter, index) => {
    const measured = production[index]!;
    const irradiated = irradiatedSeconds.get(quarter.start) ?? 0;
    const sensorsSeconds =
      ((quarter.end - quarter.start) / 1000) * Math.max(irradianceSensors.length, 1);
    const quarterSky = skyOfQuarter[index]!;
    return {
      producedKwh: measured.value ?? 0,
      productionCoverage: measured.coverage,
      sunElevationDeg: quarterSky.day.sunElevationDeg[quarterSky.index]!,
      clearSkyKwh: quarterSky.day.clearSkyKwh[quarterSky.index]!,
      irradianceWm2: irradiated > 0 ? irradiationWs.get(quarter.start)! / irradiated : null,
      irradianceCoverage: Math.min(irradiated / sensorsSeconds, 1),
      peakPowerW: powerSensors.length > 0 ? (peaks.get(quarter.start) ?? null) : null,
    };
  });

  const healthDays: HealthDay[] = [];
  let offset = 0;
  quartersByDay.forEach((dayQuarters, index) => {
    healthDays.push({
      date: formatLocalDate(addDays(range.first, index)),
      quarterHours: facts.slice(offset, offset + dayQuarters.length),
    });
    offset += dayQuarters.length;
  });

  const site = pvSiteOf(plant);
  return {
    days: healthDays,
    pv: site ? { peakPowerKw: site.pv.peakPowerKw, lossesPercent: site.pv.lossesPercent } : null,
    hasProductionSensor: flow.source !== 'NONE',
    hasIrradianceSensor: irradianceSensors.length > 0,
    inverterLimitW: inverterLimitW(inputs.producerRatingsW),
  };
}
