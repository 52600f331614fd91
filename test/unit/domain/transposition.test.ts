import { describe, expect, test } from 'vitest';
import {
  angleOfIncidenceDeg,
  clearSkyIrradiance,
  compassAzimuthFromSpaRotation,
  createSolarPositionCalculator,
  extraterrestrialIrradiance,
  planeOfArrayIrradiance,
  solarPosition,
  type Irradiance,
  type SolarPosition,
} from '../../../server/domain/index.ts';

const rome = { latitudeDeg: 41.9, longitudeDeg: 12.5 };

function clearSkyAt(position: SolarPosition): Irradiance {
  return clearSkyIrradiance({
    zenithDeg: position.zenithDeg,
    earthSunDistanceAu: position.earthSunDistanceAu,
  });
}

describe('angle of incidence', () => {
  test('matches the SPA report example: 25.18700° for slope 30°, azimuth rotation −10°', () => {
    const position = solarPosition(Date.UTC(2003, 9, 17, 19, 30, 30), {
      latitudeDeg: 39.742476,
      longitudeDeg: -105.1786,
      elevationM: 1830.14,
      pressureMbar: 820,
      temperatureC: 11,
      deltaTSeconds: 67,
    });
    // SPA measures the rotation from south, negative toward east: −10° is a bearing of 170°.
    expect(compassAzimuthFromSpaRotation(-10)).toBe(170);
    const incidence = angleOfIncidenceDeg(position.zenithDeg, position.azimuthDeg, {
      tiltDeg: 30,
      azimuthDeg: compassAzimuthFromSpaRotation(-10),
    });
    expect(Math.abs(incidence - 25.187)).toBeLessThan(1e-5);
  });

  test('equals the zenith on a horizontal plane and is 0° on a plane facing the sun', () => {
    expect(angleOfIncidenceDeg(37, 123, { tiltDeg: 0, azimuthDeg: 180 })).toBeCloseTo(37, 9);
    expect(angleOfIncidenceDeg(37, 123, { tiltDeg: 37, azimuthDeg: 123 })).toBeCloseTo(0, 5);
    expect(angleOfIncidenceDeg(60, 90, { tiltDeg: 90, azimuthDeg: 270 })).toBeCloseTo(150, 9);
  });
});

describe('planeOfArrayIrradiance', () => {
  const sun = createSolarPositionCalculator(rome);

  test('a horizontal plane receives exactly the GHI, with either diffuse model', () => {
    for (const hour of [7, 9, 12, 15, 18]) {
      const position = sun(Date.UTC(2025, 5, 21, hour));
      const irradiance = clearSkyAt(position);
      for (const diffuseModel of ['HAY_DAVIES', 'ISOTROPIC'] as const) {
        const poa = planeOfArrayIrradiance({
          irradiance,
          sunZenithDeg: position.zenithDeg,
          sunAzimuthDeg: position.azimuthDeg,
          surface: { tiltDeg: 0, azimuthDeg: 180 },
          extraterrestrialWm2: extraterrestrialIrradiance(position.earthSunDistanceAu),
          diffuseModel,
        });
        expect(poa.poaGlobal).toBeCloseTo(irradiance.ghi, 9);
        expect(poa.poaGroundReflected).toBe(0);
      }
    }
  });

  test('a plane facing the sun receives the whole DNI as beam, plus diffuse', () => {
    const position = sun(Date.UTC(2025, 2, 20, 9, 30));
    const irradiance = clearSkyAt(position);
    const poa = planeOfArrayIrradiance({
      irradiance,
      sunZenithDeg: position.zenithDeg,
      sunAzimuthDeg: position.azimuthDeg,
      surface: { tiltDeg: position.zenithDeg, azimuthDeg: position.azimuthDeg },
      extraterrestrialWm2: extraterrestrialIrradiance(position.earthSunDistanceAu),
    });
    expect(poa.angleOfIncidenceDeg).toBeLessThan(1e-4);
    expect(poa.poaBeam).toBeCloseTo(irradiance.dni, 6);
    expect(poa.poaSkyDiffuse).toBeGreaterThan(0);
    expect(poa.poaGlobal).toBeCloseTo(
      irradiance.dni + poa.poaSkyDiffuse + poa.poaGroundReflected,
      9,
    );
    expect(poa.poaGlobal).toBeGreaterThan(irradiance.ghi);
  });

  test('isotropic sky diffuse: DHI·(1 + cos β)/2 (pvlib test_isotropic_float: 88.30222215594891)', () => {
    const poa = planeOfArrayIrradiance({
      irradiance: { ghi: 0, dni: 0, dhi: 100 },
      sunZenithDeg: 50,
      sunAzimuthDeg: 180,
      surface: { tiltDeg: 40, azimuthDeg: 180 },
      diffuseModel: 'ISOTROPIC',
    });
    expect(poa.poaSkyDiffuse).toBeCloseTo(88.30222215594891, 12);
  });

  test('Hay–Davies: circumsolar share by the anisotropy index (hand-computed example)', () => {
    // z = 40°, γs = 200°, β = 30° facing 180°: cos θ = 0.9654258, Rb = 1.2602751,
    // Ai = 700/1361 = 0.5143277; sky = 150·(Ai·Rb + (1 − Ai)·(1 + cos β)/2) = 165.1998.
    const poa = planeOfArrayIrradiance({
      irradiance: { ghi: 800, dni: 700, dhi: 150 },
      sunZenithDeg: 40,
      sunAzimuthDeg: 200,
      surface: { tiltDeg: 30, azimuthDeg: 180 },
      extraterrestrialWm2: 1361,
    });
    expect(poa.poaBeam).toBeCloseTo(675.798, 3);
    expect(poa.poaSkyDiffuse).toBeCloseTo(165.1998, 3);
    expect(poa.poaGroundReflected).toBeCloseTo(10.718, 4);
    expect(poa.poaGlobal).toBeCloseTo(675.798 + 165.1998 + 10.718, 2);
  });

  test('Hay–Davies reduces to the isotropic model under an overcast sky (DNI = 0)', () => {
    const common = {
      irradiance: { ghi: 120, dni: 0, dhi: 120 },
      sunZenithDeg: 55,
      sunAzimuthDeg: 140,
      surface: { tiltDeg: 35, azimuthDeg: 200 },
    };
    expect(planeOfArrayIrradiance(common).poaGlobal).toBeCloseTo(
      planeOfArrayIrradiance({ ...common, diffuseModel: 'ISOTROPIC' }).poaGlobal,
      12,
    );
  });

  test('ground reflection: a vertical plane sees half the ground, GHI·albedo/2', () => {
    const poa = planeOfArrayIrradiance({
      irradiance: { ghi: 500, dni: 0, dhi: 500 },
      sunZenithDeg: 60,
      sunAzimuthDeg: 180,
      surface: { tiltDeg: 90, azimuthDeg: 0 },
    });
    expect(poa.poaGroundReflected).toBeCloseTo(50, 9);
    expect(
      planeOfArrayIrradiance({
        irradiance: { ghi: 500, dni: 0, dhi: 500 },
        sunZenithDeg: 60,
        sunAzimuthDeg: 180,
        surface: { tiltDeg: 90, azimuthDeg: 0 },
        albedo: 0.5,
      }).poaGroundReflected,
    ).toBeCloseTo(125, 9);
  });

  test('no beam when the sun is behind the plane', () => {
    const poa = planeOfArrayIrradiance({
      irradiance: { ghi: 400, dni: 600, dhi: 100 },
      sunZenithDeg: 70,
      sunAzimuthDeg: 100,
      surface: { tiltDeg: 60, azimuthDeg: 270 },
    });
    expect(poa.angleOfIncidenceDeg).toBeGreaterThan(90);
    expect(poa.poaBeam).toBe(0);
    expect(poa.poaSkyDiffuse).toBeGreaterThan(0);
  });
});
