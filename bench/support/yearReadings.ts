import { LOAD_SIGNATURES } from '../../server/demo/catalogData.ts';
import { DEMO_DEVICES, DEMO_PLANT } from '../../server/demo/demoPlant.ts';
import { createPlantSimulation } from '../../server/simulator/plantSimulation.ts';
import { DAY_MS } from '../../server/simulator/plantClock.ts';
import { sensorReadings, type ReadingColumns } from '../../server/simulator/sensorReadings.ts';
import { BATTERY_CAPACITY_KWH, type BenchSensor } from './yearPlant.ts';

/**
 * One year of 1-minute readings of the benchmark plant's sensors, from the server's own plant
 * simulator: PV under moving clouds, household load, a heat pump following the outdoor
 * temperature, EV sessions, a battery and the grid as the balance. Fixed dates and seed, so
 * every run ingests and queries the same numbers.
 */

/** 2025-11-01T00:00Z: the year ends at 2026-11-01T00:00Z, 365 days later. */
export const YEAR_START_MS = Date.UTC(2025, 10, 1);
export const YEAR_DAYS = 365;
const SEED = 20_251_101;

/** Readings per UTC day, then per sensor in the order of `sensors`. */
export type YearReadings = ReadingColumns[][];

export function simulateYear(sensors: readonly BenchSensor[]): YearReadings {
  const simulation = createPlantSimulation(simulationConfig());
  const days: YearReadings = [];
  for (let day = 0; day < YEAR_DAYS; day++) {
    const dayStart = YEAR_START_MS + day * DAY_MS;
    days.push(
      sensors.map((sensor) =>
        sensorReadings(
          simulation,
          { channel: sensor.channel, kind: sensor.kind, samplingIntervalSeconds: 60 },
          dayStart - 1,
          dayStart + DAY_MS - 1,
        ),
      ),
    );
  }
  return days;
}

export function readingCount(year: YearReadings): number {
  let count = 0;
  for (const day of year) for (const sensor of day) count += sensor.takenAt.length;
  return count;
}

/** The Demo Home as the simulator models it, with the loads the benchmark sensors report. */
function simulationConfig() {
  const location = DEMO_PLANT.location!;
  const pv = DEMO_PLANT.pv!;
  const ratedPowerW = (key: string) =>
    DEMO_DEVICES.find((device) => device.key === key)!.ratedPowerW;
  const household = LOAD_SIGNATURES.find((signature) => signature.code === 'HOUSEHOLD_BASE')!;
  const weightSum = household.weights.reduce((sum, weight) => sum + weight, 0);
  return {
    plantUuid: 'benchmark-year-plant',
    seedKey: 'benchmark-year-plant',
    seed: SEED,
    site: {
      latitudeDeg: location.latitude,
      longitudeDeg: location.longitude,
      altitudeM: location.altitudeM ?? 0,
    },
    timezone: location.timezone,
    pv: {
      peakPowerKw: pv.peakPowerKw,
      tiltDeg: pv.tiltDeg,
      azimuthDeg: pv.azimuthDeg,
      lossesPercent: pv.lossesPercent ?? 14,
      inverterLimitW: ratedPowerW('inverter'),
    },
    planeOfArray: { tiltDeg: pv.tiltDeg, azimuthDeg: pv.azimuthDeg },
    battery: { capacityKwh: BATTERY_CAPACITY_KWH, maxPowerW: ratedPowerW('battery') },
    loads: [
      {
        key: 'household',
        kind: 'household' as const,
        hourlyProfile: household.weights.map((weight) => weight / weightSum),
        typicalDailyKwh: household.typicalDailyKwh ?? 8.5,
      },
      { key: 'heatPump', kind: 'heatPump' as const, ratedPowerW: ratedPowerW('heatPump') },
      { key: 'ev', kind: 'ev' as const, chargingPowerW: ratedPowerW('evCharger') },
    ],
  };
}
