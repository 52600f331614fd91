import { describe, expect, test } from 'vitest';
import { createPvModel, type PvSite } from '../../../server/domain/index.ts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const CET_OFFSET_MS = 3_600_000;

/** A 5 kWp south-facing roof in Rome, 30° tilt, 14 % losses. */
const romeRoof: PvSite = {
  latitudeDeg: 41.9,
  longitudeDeg: 12.5,
  altitudeM: 20,
  pv: { peakPowerKw: 5, lossesPercent: 14, tiltDeg: 30, azimuthDeg: 180 },
};

/** Start of the local (UTC+1) day. */
const localDay = (month: number, day: number): number =>
  Date.UTC(2025, month - 1, day) - CET_OFFSET_MS;

describe('createPvModel (SPA → Ineichen → Hay–Davies → PVWatts)', () => {
  const model = createPvModel(romeRoof);

  test('clear-sky daily energy is plausible for Rome: ~6 kWh/kWp in June, ~3.3 in December', () => {
    const june = model.clearSkyEnergyKwh(localDay(6, 21), localDay(6, 22), 20) / 5;
    const december = model.clearSkyEnergyKwh(localDay(12, 21), localDay(12, 22), 10) / 5;
    expect(june).toBeGreaterThan(5.5);
    expect(june).toBeLessThan(7.5);
    expect(december).toBeGreaterThan(2.8);
    expect(december).toBeLessThan(4.2);
  });

  test('5-minute midpoint integration agrees with 1-minute integration within 0.1 %', () => {
    const coarse = model.clearSkyEnergyKwh(localDay(3, 20), localDay(3, 21), 15);
    const fine = model.clearSkyEnergyKwh(localDay(3, 20), localDay(3, 21), 15, MINUTE_MS);
    expect(Math.abs(coarse / fine - 1)).toBeLessThan(1e-3);
  });

  test('power is zero at night, peaks near solar noon and stays below the STC rating after losses', () => {
    const start = localDay(6, 21);
    let peakW = 0;
    let peakAt = 0;
    for (let time = start; time < start + DAY_MS; time += MINUTE_MS) {
      const sample = model.clearSkySample(time, 20);
      if (sample.sun.elevationDeg < -1) expect(sample.acPowerW).toBe(0);
      if (sample.acPowerW > peakW) {
        peakW = sample.acPowerW;
        peakAt = time;
      }
    }
    expect(peakW).toBeLessThan(5000 * 0.86);
    expect(peakW).toBeGreaterThan(3000);
    const solarNoonUtcHours = 12 - 12.5 / 15; // + equation of time (about −1.7 min on 21 June)
    expect(Math.abs((peakAt - Date.UTC(2025, 5, 21)) / 3_600_000 - solarNoonUtcHours)).toBeLessThan(
      0.5,
    );
  });

  test('an east-facing roof peaks in the morning, a west-facing one in the afternoon', () => {
    const peakHour = (azimuthDeg: number): number => {
      const roof = createPvModel({ ...romeRoof, pv: { ...romeRoof.pv, azimuthDeg } });
      let best = { power: -1, time: 0 };
      for (let time = localDay(6, 21); time < localDay(6, 22); time += 5 * MINUTE_MS) {
        const power = roof.clearSkySample(time, 20).acPowerW;
        if (power > best.power) best = { power, time };
      }
      return (best.time - Date.UTC(2025, 5, 21)) / 3_600_000;
    };
    expect(peakHour(90)).toBeLessThan(10);
    expect(peakHour(270)).toBeGreaterThan(13);
  });

  test('powerFrom scales with the irradiance given (clouds) and monthly turbidity changes clear sky', () => {
    const time = Date.UTC(2025, 5, 21, 11);
    const clear = model.clearSkySample(time, 20);
    const cloudy = model.powerFrom(
      clear.sun,
      { ghi: clear.irradiance.ghi * 0.3, dni: 0, dhi: clear.irradiance.ghi * 0.3 },
      20,
    );
    expect(cloudy.acPowerW).toBeGreaterThan(0);
    expect(cloudy.acPowerW).toBeLessThan(clear.acPowerW * 0.35);
    const hazyJune = createPvModel({
      ...romeRoof,
      linkeTurbidity: [3, 3, 3, 3, 3, 5, 3, 3, 3, 3, 3, 3],
    });
    expect(hazyJune.clearSkySample(time, 20).irradiance.ghi).toBeLessThan(clear.irradiance.ghi);
  });

  test('90 days of 1-minute samples take under 2 s (about 0.1 s on these machines)', () => {
    const start = Date.UTC(2025, 0, 1);
    const minutes = 90 * 1440;
    const began = performance.now();
    let energyWh = 0;
    for (let i = 0; i < minutes; i += 1) {
      energyWh += model.clearSkySample(start + i * MINUTE_MS, 15).acPowerW / 60;
    }
    const elapsedMs = performance.now() - began;
    expect(energyWh).toBeGreaterThan(0);
    expect(elapsedMs).toBeLessThan(2000);
  });
});
