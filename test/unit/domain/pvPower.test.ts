import { describe, expect, test } from 'vitest';
import {
  cellTemperatureC,
  cellTemperatureFaimanC,
  cellTemperatureNoctC,
  pvAcPowerAtCellTemperatureW,
  pvAcPowerW,
  pvDcPowerW,
  type PvArrayRating,
} from '../../../server/domain/index.ts';

const array: PvArrayRating = { peakPowerKw: 5, lossesPercent: 14 };

describe('cell temperature', () => {
  test('Faiman: Tc = Ta + E/(25 + 6.84·v)', () => {
    expect(cellTemperatureFaimanC(1000, 25, 1)).toBeCloseTo(25 + 1000 / 31.84, 9);
    expect(cellTemperatureFaimanC(1000, 25, 0)).toBeCloseTo(65, 9);
    expect(cellTemperatureFaimanC(0, 12)).toBe(12);
    expect(cellTemperatureFaimanC(800, 20, 3, 30, 5)).toBeCloseTo(20 + 800 / 45, 9);
  });

  test('NOCT: the module reaches its NOCT at 800 W/m² and 20 °C', () => {
    expect(cellTemperatureNoctC(800, 20)).toBeCloseTo(45, 9);
    expect(cellTemperatureNoctC(1000, 25, 48)).toBeCloseTo(25 + (28 * 1000) / 800, 9);
  });

  test('the array chooses its model (Faiman by default)', () => {
    expect(cellTemperatureC(array, 1000, 25)).toBeCloseTo(cellTemperatureFaimanC(1000, 25), 12);
    expect(
      cellTemperatureC({ ...array, cellTemperatureModel: { kind: 'NOCT', noctC: 46 } }, 800, 20),
    ).toBeCloseTo(46, 9);
  });
});

describe('PV power', () => {
  test('STC (1000 W/m², cell 25 °C): peak × (1 − losses)', () => {
    expect(pvDcPowerW(1000, 25, 5)).toBeCloseTo(5000, 9);
    expect(pvAcPowerAtCellTemperatureW(array, 1000, 25)).toBeCloseTo(4300, 9);
    expect(
      pvAcPowerAtCellTemperatureW({ peakPowerKw: 3.2, lossesPercent: 0 }, 1000, 25),
    ).toBeCloseTo(3200, 9);
  });

  test('scales linearly with irradiance and derates −0.4 %/K above 25 °C', () => {
    expect(pvAcPowerAtCellTemperatureW(array, 500, 25)).toBeCloseTo(2150, 9);
    expect(pvAcPowerAtCellTemperatureW(array, 1000, 45)).toBeCloseTo(4300 * 0.92, 9);
    expect(pvAcPowerAtCellTemperatureW(array, 1000, 0)).toBeCloseTo(4300 * 1.1, 9);
    expect(
      pvAcPowerAtCellTemperatureW({ ...array, temperatureCoefficientPerK: -0.0035 }, 1000, 45),
    ).toBeCloseTo(4300 * 0.93, 9);
  });

  test('from ambient temperature through the cell temperature model', () => {
    const cell = 25 + 1000 / 31.84;
    expect(pvAcPowerW(array, 1000, 25)).toBeCloseTo(4300 * (1 - 0.004 * (cell - 25)), 9);
    expect(pvAcPowerW(array, 1000, 25, 5)).toBeGreaterThan(pvAcPowerW(array, 1000, 25, 1));
  });

  test('clips at the inverter limit', () => {
    const limited = { ...array, inverterLimitW: 4000 };
    expect(pvAcPowerAtCellTemperatureW(limited, 1000, 25)).toBe(4000);
    expect(pvAcPowerAtCellTemperatureW(limited, 500, 25)).toBeCloseTo(2150, 9);
    expect(pvAcPowerAtCellTemperatureW({ ...array, inverterLimitW: null }, 1000, 25)).toBeCloseTo(
      4300,
      9,
    );
  });

  test('is zero without light and never negative', () => {
    expect(pvAcPowerW(array, 0, 10)).toBe(0);
    expect(pvAcPowerW(array, -5, 10)).toBe(0);
    expect(pvDcPowerW(1000, 400, 5)).toBe(0);
  });
});
