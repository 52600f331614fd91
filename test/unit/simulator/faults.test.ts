import { describe, expect, test } from 'vitest';
import {
  applySensorFault,
  plantFaultsOf,
  pvFactorAt,
  sensorFaultOf,
} from '../../../server/simulator/faults.ts';
import { createPlantSimulation } from '../../../server/simulator/plantSimulation.ts';
import { sensorReadings } from '../../../server/simulator/sensorReadings.ts';
import { bolzanoHome, DAY_MS, dayIndexOf, sumKwh } from './simulatorFixture.ts';

/** Faults injected through metadata: what each does to the simulated plant and readings. */

const JUNE_21 = dayIndexOf(2026, 6, 21);
const NOON_UTC = JUNE_21 * DAY_MS + 10 * 3_600_000; // 12:00 in Bolzano

describe('reading faults from metadata', () => {
  test('plant faults: a trip is a factor of 0, soiling 0.6 by default; bad entries are ignored', () => {
    expect(
      plantFaultsOf({
        simulation: {
          faults: [
            { kind: 'INVERTER_TRIP', from: '2026-06-21T12:00:00+02:00' },
            { kind: 'SOILING' },
            { kind: 'SOILING', factor: 0.8, from: '2026-06-20T00:00:00Z' },
            { kind: 'MELTDOWN' },
            { kind: 'SOILING', factor: 3 },
            { kind: 'PEAK_POWER_UNDERSTATED' },
            { kind: 'PEAK_POWER_UNDERSTATED', factor: 1.5 },
            { kind: 'PEAK_POWER_UNDERSTATED', factor: 0.5 },
            'trip',
          ],
        },
      }),
    ).toEqual([
      { kind: 'INVERTER_TRIP', fromMs: NOON_UTC, factor: 0 },
      { kind: 'SOILING', fromMs: Number.NEGATIVE_INFINITY, factor: 0.6 },
      { kind: 'SOILING', fromMs: Date.parse('2026-06-20T00:00:00Z'), factor: 0.8 },
      { kind: 'PEAK_POWER_UNDERSTATED', fromMs: Number.NEGATIVE_INFINITY, factor: 2 },
      { kind: 'PEAK_POWER_UNDERSTATED', fromMs: Number.NEGATIVE_INFINITY, factor: 1.5 },
    ]);
    expect(plantFaultsOf({})).toEqual([]);
    expect(plantFaultsOf({ simulation: { faults: 'none' } })).toEqual([]);
  });

  test('sensor faults', () => {
    expect(sensorFaultOf({ simulation: { fault: { kind: 'REVERSED_CT' } } })).toEqual({
      kind: 'REVERSED_CT',
      fromMs: Number.NEGATIVE_INFINITY,
    });
    expect(
      sensorFaultOf({
        simulation: { fault: { kind: 'STOPS_REPORTING', from: '2026-06-21T10:00:00Z' } },
      }),
    ).toEqual({ kind: 'STOPS_REPORTING', fromMs: NOON_UTC });
    expect(
      sensorFaultOf({ simulation: { fault: { kind: 'STOPS_REPORTING', from: 'noon' } } }),
    ).toBeNull();
    expect(sensorFaultOf({ simulated: true })).toBeNull();
  });

  test('the PV factor is the product of the faults begun', () => {
    const faults = plantFaultsOf({
      simulation: {
        faults: [{ kind: 'SOILING' }, { kind: 'INVERTER_TRIP', from: '2026-06-21T10:00:00Z' }],
      },
    });
    expect(pvFactorAt(faults, NOON_UTC - 1)).toBe(0.6);
    expect(pvFactorAt(faults, NOON_UTC)).toBe(0);
    expect(pvFactorAt([], NOON_UTC)).toBe(1);
  });
});

describe('applying sensor faults to readings', () => {
  const readings = () => ({
    takenAt: [0, 60_000, 120_000, 180_000],
    values: [1000, -500, 2000, 300],
  });

  test('STOPS_REPORTING drops the readings from its start, and only the appended ones', () => {
    const { takenAt, values } = readings();
    applySensorFault({ kind: 'STOPS_REPORTING', fromMs: 120_000 }, takenAt, values, 1);
    expect(takenAt).toEqual([0, 60_000]);
    expect(values).toEqual([1000, -500]);
  });

  test('REVERSED_CT flips signs, KW_INSTEAD_OF_W divides by 1,000, from their start', () => {
    const reversed = readings();
    applySensorFault({ kind: 'REVERSED_CT', fromMs: 60_000 }, reversed.takenAt, reversed.values, 0);
    expect(reversed.values).toEqual([1000, 500, -2000, -300]);
    const kilo = readings();
    applySensorFault({ kind: 'KW_INSTEAD_OF_W', fromMs: 0 }, kilo.takenAt, kilo.values, 0);
    expect(kilo.values).toEqual([1, -0.5, 2, 0.3]);
  });

  test('FROZEN_VALUE keeps reporting its value (50 by default) from its start', () => {
    const stuck = readings();
    const fault = sensorFaultOf({
      simulation: { fault: { kind: 'FROZEN_VALUE', value: 57, from: '1970-01-01T00:01:00Z' } },
    });
    expect(fault).toEqual({ kind: 'FROZEN_VALUE', fromMs: 60_000, value: 57 });
    applySensorFault(fault, stuck.takenAt, stuck.values, 0);
    expect(stuck.values).toEqual([1000, 57, 57, 57]);
    expect(sensorFaultOf({ simulation: { fault: { kind: 'FROZEN_VALUE' } } })?.value).toBe(50);
  });
});

describe('faults in the simulation', () => {
  test('a soiled array produces 0.6 of a clean one, and the grid meter follows', () => {
    const clean = createPlantSimulation(bolzanoHome()).day(JUNE_21);
    const soiled = createPlantSimulation(
      bolzanoHome({ pvFaults: plantFaultsOf({ simulation: { faults: [{ kind: 'SOILING' }] } }) }),
    ).day(JUNE_21);
    expect(sumKwh(soiled.pvW)).toBeCloseTo(0.6 * sumKwh(clean.pvW), 6);
    for (let minute = 0; minute < 1440; minute += 13) {
      const balance =
        soiled.pvW[minute]! +
        soiled.gridW[minute]! +
        soiled.batteryW[minute]! -
        soiled.consumptionW[minute]!;
      expect(Math.abs(balance)).toBeLessThan(1e-9);
    }
  });

  test('a tripped inverter produces nothing from the trip on, as before it until then', () => {
    const clean = createPlantSimulation(bolzanoHome()).day(JUNE_21);
    const tripped = createPlantSimulation(
      bolzanoHome({
        pvFaults: plantFaultsOf({
          simulation: { faults: [{ kind: 'INVERTER_TRIP', from: '2026-06-21T10:00:00Z' }] },
        }),
      }),
    ).day(JUNE_21);
    const tripMinute = 10 * 60;
    expect(tripped.pvW.slice(0, tripMinute)).toEqual(clean.pvW.slice(0, tripMinute));
    expect(clean.pvW[tripMinute]).toBeGreaterThan(1000);
    expect([...tripped.pvW.slice(tripMinute)].every((watts) => watts === 0)).toBe(true);
  });

  test('a sensor that stops reporting has no reading from then on', () => {
    const simulation = createPlantSimulation(bolzanoHome());
    const sensor = {
      channel: { source: 'pv' as const },
      kind: 'power' as const,
      samplingIntervalSeconds: 60,
      fault: { kind: 'STOPS_REPORTING' as const, fromMs: NOON_UTC },
    };
    const { takenAt } = sensorReadings(
      simulation,
      sensor,
      JUNE_21 * DAY_MS - 1,
      (JUNE_21 + 1) * DAY_MS - 1,
    );
    expect(takenAt.at(-1)).toBe(NOON_UTC - 60_000);
    expect(takenAt[0]).toBe(JUNE_21 * DAY_MS);
  });
});
