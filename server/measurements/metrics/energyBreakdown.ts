import {
  ENERGY_UNIT,
  type EnergyBreakdown,
  type EnergyShare,
  type LocalDateTime,
} from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import { bucketCeil, bucketStartOf } from '../rollups.ts';
import type { SeriesPlant } from './energySeries.ts';
import { combineFlow, measureFlow, roundMetric } from './flowMeasures.ts';
import { historyRange } from './historyRange.ts';
import { formatLocal, type TimeRange } from './localTime.ts';
import { percentagesOf } from './percentages.ts';
import {
  consumptionFlow,
  deviceConsumptionSensors,
  flowSensors,
  gridSensors,
  productionFlow,
  storageSensors,
  type EnergySensor,
  type PlantFlow,
} from './plantFlows.ts';
import { integrateSegments, samplesOf } from './powerSegments.ts';
import { rollupTotals, type SensorTotal } from './rollupSlots.ts';

/**
 * Energy per load and per source over [startDate, endDate), widened to whole quarter-hours
 * (the rollups' resolution; `from` and `to` say which).
 *
 * Loads: every device-level CONSUMPTION sensor, then `Unmeasured` = plant consumption minus
 * those loads, never negative (0 when the device-level sensors are themselves the plant's
 * consumption). Sources: the PRODUCTION sensors that make the plant's production, grid import
 * (the positive part of GRID) and battery discharge (the positive part of STORAGE).
 *
 * Import and discharge: a quarter-hour's rollup holds the net energy only, so within a
 * quarter-hour where the flow changes direction, import and export cancel. For ranges up to
 * EXACT_SPLIT_MAX_MS they are therefore integrated from the raw readings (the positive part of
 * the held power); over longer ranges, from the rollups, netted per quarter-hour (as
 * quarter-hour settlement does), which undercounts both directions only in quarter-hours with
 * a change of direction.
 */

export const EXACT_SPLIT_MAX_MS = 31 * 86_400_000;
const UNMEASURED = 'Unmeasured';

export interface BreakdownQuery {
  startDate: LocalDateTime;
  endDate: LocalDateTime;
}

export async function energyBreakdown(
  db: Db,
  plant: SeriesPlant,
  sensors: readonly EnergySensor[],
  query: BreakdownQuery,
): Promise<EnergyBreakdown> {
  const zone = plant.timezone;
  const requested = historyRange(zone, query.startDate, query.endDate);
  const range = { start: bucketStartOf(requested.start), end: bucketCeil(requested.end) };

  const consumption = consumptionFlow(sensors);
  const production = productionFlow(sensors);
  const loads = deviceConsumptionSensors(sensors);
  const exchanges = [...gridSensors(sensors), ...storageSensors(sensors)];
  const involved = new Set(
    [...flowSensors(consumption), ...flowSensors(production), ...loads, ...exchanges].map(
      (sensor) => sensor.sensorUuid,
    ),
  );
  const totals = await rollupTotals(db, [...involved], range);
  const positive = await positiveParts(db, exchanges, range, totals);

  const loadEnergy = loads.map((sensor) => totals.get(sensor.sensorUuid)!.energyKwh);
  const unmeasured =
    consumption.source === 'DEVICE_SENSORS'
      ? 0
      : Math.max(0, (await flowEnergy(db, consumption, range, totals)) - sum(loadEnergy));
  const sourceEntries = [
    ...flowSensors(production).map((sensor) => ({
      sensor,
      name: sensor.name,
      energyKwh: totals.get(sensor.sensorUuid)!.energyKwh,
    })),
    ...exchanges.map((sensor) => ({
      sensor,
      name: sensor.flow === 'GRID' ? 'Grid import' : 'Battery discharge',
      energyKwh: positive.get(sensor.sensorUuid)!,
    })),
  ];

  return {
    plantUuid: plant.plant_uuid,
    timezone: zone,
    from: formatLocal(zone, range.start),
    to: formatLocal(zone, range.end),
    unit: ENERGY_UNIT,
    loads: withPercentages([
      ...loads.map((sensor, index) => shareOf(sensor, sensor.name, loadEnergy[index]!)),
      {
        name: UNMEASURED,
        sensorUuid: null,
        deviceUuid: null,
        deviceTypeCode: null,
        energyKwh: unmeasured,
      },
    ]),
    sources: withPercentages(
      sourceEntries.map((entry) => shareOf(entry.sensor, entry.name, entry.energyKwh)),
    ),
  };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/**
 * A flow's energy over the range: its sensors summed; a balance only over the quarter-hours
 * where all its terms are measured, as the series count it.
 */
async function flowEnergy(
  db: Db,
  flow: PlantFlow,
  range: TimeRange,
  totals: ReadonlyMap<string, SensorTotal>,
): Promise<number> {
  if (flow.source === 'BALANCE') {
    const [whole] = combineFlow(await measureFlow(db, flow, [range]), (energyKwh) => energyKwh);
    return whole?.value ?? 0;
  }
  return sum(flowSensors(flow).map((sensor) => totals.get(sensor.sensorUuid)!.energyKwh));
}

/** Import or discharge of each grid and storage sensor: see the module comment. */
async function positiveParts(
  db: Db,
  sensors: readonly EnergySensor[],
  range: TimeRange,
  totals: ReadonlyMap<string, SensorTotal>,
): Promise<Map<string, number>> {
  const parts = new Map(
    sensors.map((sensor) => [sensor.sensorUuid, totals.get(sensor.sensorUuid)!.positiveKwh]),
  );
  // A counter's energy is never negative: its rollups already are its import.
  const signed = sensors.filter((sensor) => sensor.kind === 'POWER');
  if (signed.length === 0 || range.end - range.start > EXACT_SPLIT_MAX_MS) return parts;
  const whole = [range];
  for (const { sensor, segments } of await samplesOf(db, signed, range)) {
    const { energyKwh } = integrateSegments(segments, whole, (watts) => Math.max(0, watts));
    parts.set(sensor.sensorUuid, energyKwh[0]!);
  }
  return parts;
}

function shareOf(
  sensor: EnergySensor,
  name: string,
  energyKwh: number,
): Omit<EnergyShare, 'percentage'> {
  return {
    name,
    sensorUuid: sensor.sensorUuid,
    deviceUuid: sensor.deviceUuid,
    deviceTypeCode: sensor.deviceTypeCode,
    energyKwh,
  };
}

function withPercentages(entries: readonly Omit<EnergyShare, 'percentage'>[]): EnergyShare[] {
  const percentages = percentagesOf(entries.map((entry) => entry.energyKwh));
  return entries.map((entry, index) => ({
    ...entry,
    energyKwh: roundMetric(entry.energyKwh),
    percentage: percentages[index]!,
  }));
}
