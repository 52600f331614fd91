import { describe, expect, test } from 'vitest';
import { createSolarPositionCalculator } from '../../../server/domain/index.ts';
import { MAX_SOC_PERCENT, MIN_SOC_PERCENT } from '../../../server/simulator/battery.ts';
import { createPlantSimulation } from '../../../server/simulator/plantSimulation.ts';
import { bolzanoHome, DAY_MS, dayIndexOf, sumKwh } from './simulatorFixture.ts';

const WEEK = 7;

describe('plant simulation: the energy balance', () => {
  test('consumption = production + grid + storage at every minute of a simulated week (1e-9 W)', () => {
    for (const start of [
      dayIndexOf(2026, 1, 12),
      dayIndexOf(2026, 6, 15),
      dayIndexOf(2026, 3, 27),
    ]) {
      const simulation = createPlantSimulation(bolzanoHome());
      let checked = 0;
      let worst = 0;
      for (let dayIndex = start; dayIndex < start + WEEK; dayIndex++) {
        const day = simulation.day(dayIndex);
        for (let minute = 0; minute < 1440; minute++) {
          const balance =
            day.pvW[minute]! +
            day.gridW[minute]! +
            day.batteryW[minute]! -
            day.consumptionW[minute]!;
          worst = Math.max(worst, Math.abs(balance));
          checked++;
        }
      }
      expect(worst).toBeLessThanOrEqual(1e-9);
      expect(checked).toBe(WEEK * 1440);
    }
  });

  test('consumption is the sum of every load', () => {
    const day = createPlantSimulation(bolzanoHome()).day(dayIndexOf(2026, 2, 3));
    for (let minute = 0; minute < 1440; minute += 7) {
      const sum = [...day.loadW.values()].reduce((total, watts) => total + watts[minute]!, 0);
      expect(day.consumptionW[minute]).toBeCloseTo(sum, 9);
    }
  });

  test('the grid both imports and exports over a sunny spring week', () => {
    const simulation = createPlantSimulation(bolzanoHome());
    let imported = 0;
    let exported = 0;
    for (let dayIndex = dayIndexOf(2026, 4, 1); dayIndex < dayIndexOf(2026, 4, 8); dayIndex++) {
      for (const watts of simulation.day(dayIndex).gridW) {
        if (watts > 0) imported += watts;
        else exported -= watts;
      }
    }
    expect(imported).toBeGreaterThan(0);
    expect(exported).toBeGreaterThan(0);
  });
});

describe('plant simulation: PV', () => {
  const site = bolzanoHome().site;
  const sunAt = createSolarPositionCalculator({
    latitudeDeg: site.latitudeDeg,
    longitudeDeg: site.longitudeDeg,
    elevationM: site.altitudeM,
  });

  test('zero whenever the sun is below the horizon', () => {
    const simulation = createPlantSimulation(bolzanoHome());
    for (let dayIndex = dayIndexOf(2026, 6, 1); dayIndex < dayIndexOf(2026, 6, 8); dayIndex++) {
      const day = simulation.day(dayIndex);
      for (let minute = 0; minute < 1440; minute++) {
        if (sunAt(dayIndex * DAY_MS + minute * 60_000).elevationDeg < 0) {
          expect(day.pvW[minute]).toBe(0);
          expect(day.poaWm2[minute]).toBe(0);
        }
      }
    }
  });

  test('a clear summer noon in Bolzano: a plausible peak, at most peak × (1 − losses) × 1.05', () => {
    // No inverter limit, so the array's own output is what is checked.
    const config = bolzanoHome({
      pv: {
        peakPowerKw: 8.4,
        tiltDeg: 30,
        azimuthDeg: 180,
        lossesPercent: 14,
        inverterLimitW: null,
      },
    });
    const simulation = createPlantSimulation(config);
    const ceilingW = 8400 * (1 - 0.14) * 1.05;
    let clearestDayPeakW = 0;
    for (let dayIndex = dayIndexOf(2026, 6, 1); dayIndex <= dayIndexOf(2026, 7, 31); dayIndex++) {
      const day = simulation.day(dayIndex);
      // 10:00–12:00 UTC is around solar noon in Bolzano (UTC+0:45 solar).
      for (let minute = 600; minute < 720; minute++) {
        expect(day.pvW[minute]).toBeLessThanOrEqual(ceilingW);
        clearestDayPeakW = Math.max(clearestDayPeakW, day.pvW[minute]!);
      }
    }
    // Hot modules lose ~10 %, the 30° plane gains a little: ~6 to 7.5 kW on a clear noon.
    expect(clearestDayPeakW).toBeGreaterThan(6000);
  });

  test('daily energy is plausible for the season: summer far above winter', () => {
    const simulation = createPlantSimulation(bolzanoHome());
    const monthKwh = (month: number) => {
      let total = 0;
      for (let day = 1; day <= 28; day++)
        total += sumKwh(simulation.day(dayIndexOf(2026, month, day)).pvW);
      return total / 28 / 8.4; // kWh per kWp per day
    };
    const july = monthKwh(7);
    const december = monthKwh(12);
    expect(july).toBeGreaterThan(3.5);
    expect(july).toBeLessThan(7);
    expect(december).toBeGreaterThan(0.8);
    expect(december).toBeLessThan(4);
  });
});

describe('plant simulation: battery', () => {
  test('state of charge stays within 10–95 % and power within the rating over two months', () => {
    const simulation = createPlantSimulation(bolzanoHome());
    let sawEmpty = false;
    let sawFull = false;
    for (let dayIndex = dayIndexOf(2026, 3, 1); dayIndex < dayIndexOf(2026, 5, 1); dayIndex++) {
      const day = simulation.day(dayIndex);
      let lowest = Infinity;
      let highest = -Infinity;
      let strongest = 0;
      for (let minute = 0; minute < 1440; minute++) {
        lowest = Math.min(lowest, day.socPercent[minute]!);
        highest = Math.max(highest, day.socPercent[minute]!);
        strongest = Math.max(strongest, Math.abs(day.batteryW[minute]!));
      }
      expect(lowest).toBeGreaterThanOrEqual(MIN_SOC_PERCENT);
      expect(highest).toBeLessThanOrEqual(MAX_SOC_PERCENT);
      expect(strongest).toBeLessThanOrEqual(5000);
      sawEmpty ||= lowest < MIN_SOC_PERCENT + 0.5;
      sawFull ||= highest > MAX_SOC_PERCENT - 0.5;
    }
    expect(sawEmpty).toBe(true);
    expect(sawFull).toBe(true);
  });

  test('charges only from surplus and discharges only to cover load', () => {
    const day = createPlantSimulation(bolzanoHome()).day(dayIndexOf(2026, 4, 20));
    for (let minute = 0; minute < 1440; minute++) {
      const surplus = day.pvW[minute]! - day.consumptionW[minute]!;
      const battery = day.batteryW[minute]!;
      if (battery < 0) expect(-battery).toBeLessThanOrEqual(surplus + 1e-9);
      if (battery > 0) expect(battery).toBeLessThanOrEqual(-surplus + 1e-9);
    }
  });

  test('a plant without a battery has zero storage power', () => {
    const day = createPlantSimulation(bolzanoHome({ battery: null })).day(dayIndexOf(2026, 4, 20));
    expect(day.batteryW.every((watts) => watts === 0)).toBe(true);
  });
});

describe('plant simulation: determinism', () => {
  test('same seed, plant and day give the same values; a later start gives the same day', () => {
    const day = dayIndexOf(2026, 9, 10);
    const first = createPlantSimulation(bolzanoHome());
    const second = createPlantSimulation(bolzanoHome());
    // The second simulation walks days first, as a backfill would, so its caches differ.
    for (let walk = day - 10; walk < day; walk++) second.day(walk);
    const a = first.day(day);
    const b = second.day(day);
    expect([...b.pvW]).toEqual([...a.pvW]);
    expect([...b.gridW]).toEqual([...a.gridW]);
    expect([...b.socPercent]).toEqual([...a.socPercent]);
    expect([...b.temperatureC]).toEqual([...a.temperatureC]);
  });

  test('another seed or another plant gives other values', () => {
    const day = dayIndexOf(2026, 9, 10);
    const base = createPlantSimulation(bolzanoHome()).day(day);
    const reseeded = createPlantSimulation(bolzanoHome({ seed: 2 })).day(day);
    const otherPlant = createPlantSimulation(
      bolzanoHome({
        plantUuid: '0f6e2a1c-7b3d-4c8e-9f10-a2b3c4d5e6f7',
        seedKey: '0f6e2a1c-7b3d-4c8e-9f10-a2b3c4d5e6f7',
      }),
    ).day(day);
    expect([...reseeded.consumptionW]).not.toEqual([...base.consumptionW]);
    expect([...otherPlant.consumptionW]).not.toEqual([...base.consumptionW]);
  });
});
