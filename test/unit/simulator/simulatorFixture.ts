import type { PlantSimulationConfig } from '../../../server/simulator/plantSimulation.ts';

const HOUSEHOLD_WEIGHTS = [
  3, 2.5, 2.2, 2.1, 2.1, 2.4, 3.5, 5, 4.8, 4, 3.8, 4.2, 5, 4.5, 3.9, 3.8, 4.2, 5.2, 6.8, 7.2, 6.5,
  5.5, 4.5, 3.6,
];
const total = HOUSEHOLD_WEIGHTS.reduce((sum, weight) => sum + weight, 0);
export const HOUSEHOLD_PROFILE = HOUSEHOLD_WEIGHTS.map((weight) => weight / total);

export const DAY_MS = 86_400_000;
export const dayIndexOf = (year: number, month: number, day: number): number =>
  Date.UTC(year, month - 1, day) / DAY_MS;

/** The demo plant near Bolzano: 8.4 kWp, 10 kWh battery, heat pump, wallbox, base load. */
export function bolzanoHome(overrides: Partial<PlantSimulationConfig> = {}): PlantSimulationConfig {
  return {
    plantUuid: '5b0d8f7e-3c1a-4e59-9a4f-2d6b8c0e1f23',
    seedKey: '5b0d8f7e-3c1a-4e59-9a4f-2d6b8c0e1f23',
    seed: 1,
    site: { latitudeDeg: 46.4983, longitudeDeg: 11.3548, altitudeM: 262 },
    timezone: 'Europe/Rome',
    pv: { peakPowerKw: 8.4, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14, inverterLimitW: 8000 },
    planeOfArray: { tiltDeg: 30, azimuthDeg: 180 },
    battery: { capacityKwh: 10, maxPowerW: 5000 },
    loads: [
      {
        key: 'household',
        kind: 'household',
        hourlyProfile: HOUSEHOLD_PROFILE,
        typicalDailyKwh: 8.5,
      },
      { key: 'heat-pump', kind: 'heatPump', ratedPowerW: 3200 },
      { key: 'wallbox', kind: 'ev', chargingPowerW: 11_000 },
    ],
    ...overrides,
  };
}

export const sumKwh = (watts: ArrayLike<number>): number => {
  let total = 0;
  for (let index = 0; index < watts.length; index++) total += watts[index]!;
  return total / 60_000;
};
