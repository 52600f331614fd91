import { describe, expect, test } from 'vitest';
import {
  absoluteAirMass,
  clearSkyIrradiance,
  createSolarPositionCalculator,
  extraterrestrialIrradiance,
  extraterrestrialIrradianceForDay,
  haurwitzGhi,
  ineichenPerez,
  linkeTurbidityForMonth,
  pressureAtAltitudePa,
  relativeAirMass,
  SOLAR_CONSTANT_W_M2,
  type Irradiance,
} from '../../../server/domain/index.ts';

/** Relative closeness: |actual − expected| ≤ 1e−7·|expected| (+ a tiny absolute floor). */
function expectClose(actual: Irradiance, expected: [number, number, number]): void {
  const [ghi, dni, dhi] = expected;
  for (const [value, reference] of [
    [actual.ghi, ghi],
    [actual.dni, dni],
    [actual.dhi, dhi],
  ] as const) {
    expect(Math.abs(value - reference)).toBeLessThanOrEqual(1e-7 * Math.abs(reference) + 1e-9);
  }
}

describe('ineichenPerez against pvlib-python reference outputs (tests/test_clearsky.py)', () => {
  test('series: Tucson 2014-06-24 every 3 h, TL = 3 (test_ineichen_series)', () => {
    const zeniths = [
      124.0390863, 113.38779941, 82.85457044, 46.0467599, 10.56413562, 34.86074109, 72.41687122,
      105.69538659, 124.05614124,
    ];
    const airMasses = [
      Number.NaN,
      Number.NaN,
      6.97935524,
      1.32355476,
      0.93527685,
      1.12008114,
      3.01614096,
      Number.NaN,
      Number.NaN,
    ];
    const expected: [number, number, number][] = [
      [0, 0, 0],
      [0, 0, 0],
      [65.49426624, 321.16092181, 25.54562017],
      [704.6968125, 888.90147035, 87.73601277],
      [1044.1230677, 953.24925854, 107.03109696],
      [853.02065704, 922.06124712, 96.42909484],
      [251.99427693, 655.44925241, 53.9901349],
      [0, 0, 0],
      [0, 0, 0],
    ];
    zeniths.forEach((zenithDeg, index) => {
      const result = ineichenPerez({
        zenithDeg,
        airMassAbsolute: airMasses[index]!,
        linkeTurbidity: 3,
      });
      expectClose(result, expected[index]!);
    });
  });

  test('scalar, other extraterrestrial irradiance and altitude (test_ineichen_scalar_input, _dni_extra, _altitude)', () => {
    const base = { zenithDeg: 10, airMassAbsolute: 1, linkeTurbidity: 3 };
    expectClose(ineichenPerez(base), [1038.159219, 942.2081860378344, 110.26529293612793]);
    expectClose(
      ineichenPerez({ ...base, extraterrestrialWm2: 1370 }),
      [1042.72590228, 946.35279683, 110.75033088],
    );
    expectClose(
      ineichenPerez({ ...base, altitudeM: 2000 }),
      [1134.24312405, 994.95377835, 154.40492924],
    );
  });

  test('grid of zenith × air mass × turbidity (test_ineichen_arrays)', () => {
    const zeniths = [0, 40, 80];
    const airMasses = [1, 5.5, 10];
    const turbidities = [2, 3, 4];
    // expected[airMass][zenith][turbidity], as numpy's meshgrid lays them out.
    const ghi = [
      [
        [1095.77074798, 1054.17449885, 1014.15727338],
        [839.40909243, 807.54451692, 776.88954373],
        [190.27859353, 183.05548067, 176.10656239],
      ],
      [
        [773.49041181, 625.19479557, 505.33080493],
        [592.52803177, 478.92699901, 387.10585505],
        [134.31520045, 108.56393694, 87.74977339],
      ],
      [
        [545.9968869, 370.78162375, 251.79449885],
        [418.25788117, 284.03520249, 192.88577665],
        [94.81136442, 64.38555328, 43.72365587],
      ],
    ];
    const dniByAirMass = [
      [1014.38807396, 942.20818604, 861.11344424],
      [687.61305142, 419.14891162, 255.50098235],
      [458.62196014, 186.46177428, 75.80970012],
    ];
    const dhi = [
      [
        [81.38267402, 111.96631281, 153.04382915],
        [62.3427452, 85.77117175, 117.23837487],
        [14.13195304, 19.44274618, 26.57578203],
      ],
      [
        [85.87736039, 206.04588395, 249.82982258],
        [65.78587472, 157.84030442, 191.38074731],
        [14.91244713, 35.77949226, 43.38249342],
      ],
      [
        [87.37492676, 184.31984947, 175.98479873],
        [66.93307711, 141.19719644, 134.81217714],
        [15.17249681, 32.00680597, 30.5594396],
      ],
    ];
    airMasses.forEach((airMassAbsolute, a) => {
      zeniths.forEach((zenithDeg, z) => {
        turbidities.forEach((linkeTurbidity, t) => {
          const result = ineichenPerez({ zenithDeg, airMassAbsolute, linkeTurbidity });
          expectClose(result, [ghi[a]![z]![t]!, dniByAirMass[a]![t]!, dhi[a]![z]![t]!]);
        });
      });
    });
  });
});

describe('air mass, pressure and extraterrestrial irradiance', () => {
  test('Kasten–Young relative air mass: ≈1 overhead, 1.994 at 60°, 37.92 at the horizon', () => {
    expect(relativeAirMass(0)).toBeCloseTo(0.99971, 5);
    expect(relativeAirMass(60)).toBeCloseTo(1.9943, 4);
    expect(relativeAirMass(90)).toBeCloseTo(37.92, 2);
    expect(relativeAirMass(90.5)).toBe(Number.POSITIVE_INFINITY);
    expect(absoluteAirMass(2, 81060)).toBeCloseTo(1.6, 6);
  });

  test('standard-atmosphere pressure: 101325 Pa at sea level, about 79.5 kPa at 2000 m', () => {
    expect(pressureAtAltitudePa(0)).toBeCloseTo(101325, -1);
    expect(pressureAtAltitudePa(2000) / 1000).toBeCloseTo(79.5, 1);
  });

  test('extraterrestrial irradiance follows 1/r² and Spencer agrees with the SPA distance within 0.15 %', () => {
    expect(extraterrestrialIrradiance(1)).toBe(SOLAR_CONSTANT_W_M2);
    expect(extraterrestrialIrradiance(0.9833)).toBeCloseTo(1361 / 0.9833 ** 2, 9);
    const sun = createSolarPositionCalculator({ latitudeDeg: 0, longitudeDeg: 0 });
    for (let day = 1; day <= 365; day += 1) {
      const noon = Date.UTC(2025, 0, day, 12);
      const exact = extraterrestrialIrradiance(sun(noon).earthSunDistanceAu);
      expect(Math.abs(extraterrestrialIrradianceForDay(day) / exact - 1)).toBeLessThan(1.5e-3);
    }
    // Perihelion in early January, aphelion in early July: about ±3.3 % around the constant.
    expect(extraterrestrialIrradianceForDay(3)).toBeCloseTo(1361 * 1.0342, -1);
    expect(extraterrestrialIrradianceForDay(185)).toBeCloseTo(1361 * 0.9672, -1);
  });

  test('Linke turbidity: a constant, or one value per month', () => {
    expect(linkeTurbidityForMonth(3.2, 6)).toBe(3.2);
    const monthly = [2.6, 2.8, 3.1, 3.4, 3.6, 3.7, 3.7, 3.6, 3.3, 3.0, 2.8, 2.6];
    expect(linkeTurbidityForMonth(monthly, 0)).toBe(2.6);
    expect(linkeTurbidityForMonth(monthly, 6)).toBe(3.7);
    expect(() => linkeTurbidityForMonth([3, 3], 1)).toThrow(RangeError);
  });
});

describe('clearSkyIrradiance over real days', () => {
  test('is zero at night, consistent (GHI = DNI·cos z + DHI) and physically bounded by day', () => {
    const site = { latitudeDeg: 41.9, longitudeDeg: 12.5, elevationM: 20 };
    const sun = createSolarPositionCalculator(site);
    let maxGhi = 0;
    for (const start of [Date.UTC(2025, 5, 21), Date.UTC(2025, 11, 21)]) {
      for (let minute = 0; minute < 1440; minute += 5) {
        const position = sun(start + minute * 60_000);
        const result = clearSkyIrradiance({
          zenithDeg: position.zenithDeg,
          earthSunDistanceAu: position.earthSunDistanceAu,
          altitudeM: 20,
        });
        const e0 = extraterrestrialIrradiance(position.earthSunDistanceAu);
        if (position.elevationDeg <= 0) {
          expect(result).toEqual({ ghi: 0, dni: 0, dhi: 0 });
          continue;
        }
        const cosZenith = Math.cos((position.zenithDeg * Math.PI) / 180);
        expect(result.dni).toBeLessThanOrEqual(e0);
        expect(result.ghi).toBeLessThanOrEqual(e0 * cosZenith);
        expect(result.dhi).toBeGreaterThanOrEqual(0);
        expect(result.ghi).toBeCloseTo(result.dni * cosZenith + result.dhi, 9);
        maxGhi = Math.max(maxGhi, result.ghi);
      }
    }
    // Summer-solstice clear-sky noon in Rome (sun 71.5° high): roughly 900–1000 W/m².
    expect(maxGhi).toBeGreaterThan(900);
    expect(maxGhi).toBeLessThan(1000);
  });
});

describe('haurwitzGhi', () => {
  test('GHI = 1098·cos z·exp(−0.057/cos z)', () => {
    expect(haurwitzGhi(0)).toBeCloseTo(1037.16, 2);
    expect(haurwitzGhi(60)).toBeCloseTo(549 * Math.exp(-0.114), 9);
    expect(haurwitzGhi(60)).toBeCloseTo(489.85, 2);
    expect(haurwitzGhi(85)).toBeCloseTo(1098 * 0.0871557 * Math.exp(-0.057 / 0.0871557), 3);
  });

  test('is zero with the sun on or below the horizon', () => {
    expect(haurwitzGhi(90)).toBe(0);
    expect(haurwitzGhi(90.001)).toBe(0);
    expect(haurwitzGhi(130)).toBe(0);
  });
});
