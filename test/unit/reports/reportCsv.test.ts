import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../i18n/translator.ts';
import {
  buildFleetReport,
  buildPlantReport,
  daysCsv,
  summaryCsv,
  type PlantReport,
} from '../../../server/domain/reports/index.ts';

const MARCH = { kind: 'month', year: 2026, month: 3 } as const;

function report(uuid: string, name: string, peakPowerKw: number, kwh: number): PlantReport {
  return buildPlantReport({
    plant: { uuid, name, timezone: 'Europe/Madrid', peakPowerKw },
    period: MARCH,
    from: '2026-03-01T00:00:00+01:00',
    to: '2026-04-01T00:00:00+02:00',
    production: [{ day: '2026-03-29', kwh, coverage: 0.5, hours: 23 }],
    consumption: [{ day: '2026-03-29', kwh: 1234.5, coverage: 1, hours: 23 }],
    health: {
      energyProducedKwh: kwh,
      expectedEnergyKwh: 20,
      performancePercent: 61.5,
      performanceRatio: null,
      status: 'DEGRADED',
    },
    alerts: [],
  });
}

describe('report CSV', () => {
  const plants = [report('a', 'Roof, east', 4, 12.3), report('b', '=Barn', 2, 8)];
  const fleet = buildFleetReport(MARCH, plants);

  it('writes one summary row per plant in ranking order: commas, "." decimals, translated header', () => {
    const csv = summaryCsv(fleet, '2026-03', createTranslator('de'));
    const lines = csv.split('\r\n');
    expect(lines[0]).toMatch(/^Rang,Anlage,Zeitraum,Erzeugung kWh,Abdeckung Erzeugung,/);
    // Barn: 4 kWh/kWp, first; its name is kept from running as a formula.
    expect(lines[1]).toBe("1,'=Barn,2026-03,8,0.5,20,61.5,4,,,1,1234.5,1,0");
    expect(lines[2]).toBe('2,"Roof, east",2026-03,12.3,0.5,20,61.5,3.08,,,1,1234.5,1,0');
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('writes the days of every plant, local days as yyyy-MM-dd', () => {
    const csv = daysCsv(plants, createTranslator('it'));
    expect(csv.split('\r\n').slice(0, 2)).toEqual([
      'impianto,giorno,produzione kWh,copertura produzione,consumo kWh,copertura consumo',
      '"Roof, east",2026-03-29,12.3,0.5,1234.5,1',
    ]);
  });
});
