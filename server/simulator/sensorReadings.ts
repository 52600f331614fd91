import type { ReadingKind } from '../measurements/readingKinds.ts';
import { channelSeries, type Channel } from './channels.ts';
import { applySensorFault, type SensorFault } from './faults.ts';
import { DAY_MS, MINUTE_MS } from './plantClock.ts';
import type { PlantSimulation, SimulatedDay } from './plantSimulation.ts';

/**
 * A simulated sensor's readings over a span of time.
 *
 * Readings come every sampling interval on a grid that restarts at every UTC midnight, so every
 * day has a reading at 00:00 whatever the interval. A reading at time t carries the value of
 * the minute holding t (`power` and `level` sensors). A `counter` (ENERGY) sensor counts the
 * kWh of its channel since UTC midnight, the energy of imports for a grid meter and of
 * discharges for a battery (a counter only goes up): its 00:00 reading shows the whole previous
 * day and the next one restarts from zero, a reset whose energy is the new value itself, so no
 * energy is lost across midnight.
 */

export interface SimulatedSensorSpec {
  channel: Channel;
  kind: ReadingKind;
  samplingIntervalSeconds: number;
  /** A fault injected from the sensor's metadata (faults.ts). */
  fault?: SensorFault | null;
}

export interface ReadingColumns {
  takenAt: number[];
  values: number[];
}

/** Readings of the sensor at its grid times in (afterMs, untilMs]. */
export function sensorReadings(
  simulation: PlantSimulation,
  sensor: SimulatedSensorSpec,
  afterMs: number,
  untilMs: number,
): ReadingColumns {
  const readings: ReadingColumns = { takenAt: [], values: [] };
  const lastDay = Math.floor(untilMs / DAY_MS);
  for (let dayIndex = Math.floor((afterMs + 1) / DAY_MS); dayIndex <= lastDay; dayIndex++) {
    appendDayReadings(simulation, sensor, dayIndex, afterMs, untilMs, readings);
  }
  return readings;
}

/**
 * Appends the sensor's readings of UTC day `dayIndex` that fall in (afterMs, untilMs]. Several
 * sensors' readings are best built day by day, so each day is simulated once for all of them.
 */
export function appendDayReadings(
  simulation: PlantSimulation,
  sensor: SimulatedSensorSpec,
  dayIndex: number,
  afterMs: number,
  untilMs: number,
  readings: ReadingColumns,
): void {
  const { takenAt, values } = readings;
  const appendedFrom = takenAt.length;
  const stepMs = Math.max(Math.round(sensor.samplingIntervalSeconds), 1) * 1000;
  const dayStart = dayIndex * DAY_MS;
  const from = Math.max(afterMs + 1 - dayStart, 0);
  const to = Math.min(untilMs - dayStart, DAY_MS - 1);
  let offset = Math.ceil(from / stepMs) * stepMs;
  if (offset > to) return;
  const series = channelSeries(simulation.day(dayIndex), sensor.channel);
  if (sensor.kind === 'counter') {
    const cumulative = cumulativeKwh(series);
    for (; offset <= to; offset += stepMs) {
      takenAt.push(dayStart + offset);
      values.push(
        offset === 0
          ? totalKwh(simulation.day(dayIndex - 1), sensor.channel)
          : counterAt(series, cumulative, offset),
      );
    }
  } else {
    for (; offset <= to; offset += stepMs) {
      takenAt.push(dayStart + offset);
      values.push(series[Math.floor(offset / MINUTE_MS)]!);
    }
  }
  applySensorFault(sensor.fault, takenAt, values, appendedFrom);
}

/** kWh counted from midnight to the start of each minute (and the day's total at the end). */
function cumulativeKwh(series: Float64Array): Float64Array {
  const cumulative = new Float64Array(series.length + 1);
  for (let index = 0; index < series.length; index++) {
    cumulative[index + 1] = cumulative[index]! + countedKwh(series[index]!);
  }
  return cumulative;
}

/** A minute's energy as a counter sees it: only what flows in its counting direction. */
function countedKwh(watts: number): number {
  return Math.max(watts, 0) / 60_000;
}

function counterAt(series: Float64Array, cumulative: Float64Array, offsetMs: number): number {
  const minute = Math.floor(offsetMs / MINUTE_MS);
  const withinMinute = (offsetMs - minute * MINUTE_MS) / MINUTE_MS;
  return cumulative[minute]! + countedKwh(series[minute]!) * withinMinute;
}

function totalKwh(day: SimulatedDay, channel: Channel): number {
  const series = channelSeries(day, channel);
  let total = 0;
  for (let index = 0; index < series.length; index++) total += countedKwh(series[index]!);
  return total;
}
