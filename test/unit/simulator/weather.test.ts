import { describe, expect, test } from 'vitest';
import { hashString, plantSeed, uniform, valueNoise } from '../../../server/simulator/noise.ts';
import { cloudsAt, diurnalShape, weatherDay } from '../../../server/simulator/weather.ts';
import { dayIndexOf } from './simulatorFixture.ts';

const bolzano = { latitudeDeg: 46.4983, longitudeDeg: 11.3548, altitudeM: 262 };
const sydney = { latitudeDeg: -33.87, longitudeDeg: 151.21, altitudeM: 20 };
const SEED = plantSeed(1, '5b0d8f7e-3c1a-4e59-9a4f-2d6b8c0e1f23');

const mean = (values: ArrayLike<number>) => {
  let sum = 0;
  for (let index = 0; index < values.length; index++) sum += values[index]!;
  return sum / values.length;
};

function monthMeanC(site: typeof bolzano, month: number): number {
  let total = 0;
  for (let day = 1; day <= 28; day++) {
    total += mean(weatherDay(SEED, site, dayIndexOf(2026, month, day)).temperatureC);
  }
  return total / 28;
}

describe('noise', () => {
  test('uniform draws are in [0, 1), spread evenly and repeatable', () => {
    let sum = 0;
    for (let index = 0; index < 20_000; index++) {
      const value = uniform(42, 3, index);
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
      sum += value;
    }
    expect(sum / 20_000).toBeCloseTo(0.5, 2);
    expect(uniform(42, 3, 12_345)).toBe(uniform(42, 3, 12_345));
    expect(uniform(42, 3, 12_345)).not.toBe(uniform(43, 3, 12_345));
    expect(uniform(42, 3, 12_345)).not.toBe(uniform(42, 4, 12_345));
  });

  test('value noise is continuous and passes through the lattice values', () => {
    expect(valueNoise(7, 1, 10)).toBe(uniform(7, 1, 10));
    for (let position = 0; position < 50; position += 0.01) {
      expect(
        Math.abs(valueNoise(7, 1, position + 0.001) - valueNoise(7, 1, position)),
      ).toBeLessThan(0.002);
    }
  });

  test('plant seeds differ by plant and by run seed', () => {
    expect(plantSeed(1, 'a')).not.toBe(plantSeed(1, 'b'));
    expect(plantSeed(1, 'a')).not.toBe(plantSeed(2, 'a'));
    expect(hashString('plant')).toBe(hashString('plant'));
  });
});

describe('temperature', () => {
  test('Bolzano: cold winters, warm summers', () => {
    const january = monthMeanC(bolzano, 1);
    const july = monthMeanC(bolzano, 7);
    expect(january).toBeGreaterThan(-8);
    expect(january).toBeLessThan(6);
    expect(july).toBeGreaterThan(17);
    expect(july).toBeLessThan(29);
  });

  test('the southern hemisphere has its summer in January', () => {
    expect(monthMeanC(sydney, 1)).toBeGreaterThan(monthMeanC(sydney, 7) + 5);
  });

  test('coldest near sunrise, warmest in the afternoon, and no jumps', () => {
    expect(diurnalShape(6)).toBe(-1);
    expect(diurnalShape(15)).toBe(1);
    expect(diurnalShape(5.99)).toBeCloseTo(-1, 3);
    expect(diurnalShape(24)).toBeCloseTo(diurnalShape(0), 12);
    let afternoon = 0;
    let dawn = 0;
    let steepest = 0;
    for (let day = 1; day <= 28; day++) {
      const { temperatureC } = weatherDay(SEED, bolzano, dayIndexOf(2026, 4, day));
      // Solar time is UTC + 45 minutes in Bolzano.
      afternoon += mean(temperatureC.slice(13 * 60, 15 * 60));
      dawn += mean(temperatureC.slice(4 * 60, 6 * 60));
      for (let minute = 1; minute < 1440; minute++) {
        steepest = Math.max(steepest, Math.abs(temperatureC[minute]! - temperatureC[minute - 1]!));
      }
    }
    expect(afternoon / 28).toBeGreaterThan(dawn / 28 + 4);
    expect(steepest).toBeLessThan(0.2);
  });
});

describe('clouds', () => {
  test('clear, mixed and overcast days all occur over a year, with smooth minute-to-minute change', () => {
    const kinds = { clear: 0, mixed: 0, overcast: 0 };
    const steps: number[] = [];
    let lowest = Infinity;
    let highest = -Infinity;
    for (let dayIndex = dayIndexOf(2026, 1, 1); dayIndex < dayIndexOf(2027, 1, 1); dayIndex++) {
      const { clearSkyIndex } = weatherDay(SEED, bolzano, dayIndex);
      const daytime = mean(clearSkyIndex.slice(9 * 60, 14 * 60));
      if (daytime > 0.85) kinds.clear++;
      else if (daytime < 0.4) kinds.overcast++;
      else kinds.mixed++;
      for (let minute = 1; minute < 1440; minute++) {
        const index = clearSkyIndex[minute]!;
        lowest = Math.min(lowest, index);
        highest = Math.max(highest, index);
        steps.push(Math.abs(index - clearSkyIndex[minute - 1]!));
      }
    }
    expect(lowest).toBeGreaterThanOrEqual(0);
    expect(highest).toBeLessThan(1.2);
    expect(kinds.clear).toBeGreaterThan(60);
    expect(kinds.mixed).toBeGreaterThan(60);
    expect(kinds.overcast).toBeGreaterThan(30);
    steps.sort((a, b) => a - b);
    expect(steps[Math.floor(steps.length * 0.99)]).toBeLessThan(0.3);
  });

  test('no cloud at coverage 0 and full cover at coverage 1', () => {
    for (let minute = 0; minute < 5000; minute += 13) {
      expect(cloudsAt(SEED, minute, 0).beamTransmittance).toBeGreaterThan(0.95);
      expect(cloudsAt(SEED, minute, 1).beamTransmittance).toBe(0);
    }
  });
});
