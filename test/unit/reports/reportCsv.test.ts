import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../i18n/translator.ts';
import {
  buildFleetReport,
  buildPlantReport,
  daysCsv,
  daysOf,
  type ReportDataHealth,
  summaryCsv,
  type PlantReport,
} from '../../../server/domain/reports/index.ts';

const MARCH = { kind: 'month', year: 2026, month: 3 } as const;

/** February 2026: 4 whole weeks at 2 kWh an hour, the expectation's basis for March. */
const FEBRUARY = daysOf({ start: '2026-02-01', end: '2026-02-28' }).map((day) => ({
  day,
  kwh: 48,
  coverage: 1,
  hours: 24,
}));

function report(
  uuid: string,
  name: string,
  peakPowerKw: number,
  kwh: number,
  dataHealth: ReportDataHealth | null = null,
): PlantReport {
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
    consumptionHistory: { weeksBefore: FEBRUARY, yearBefore: null },
    dataHealth,
  });
}

describe('report CSV', () => {
  const plants = [
    report('a', 'Roof, east', 4, 12.3, {
      productionCoverage: 0.98,
      consumptionCoverage: 0.5,
      findings: { gaps: 3, counterIssues: 1, frozen: 0 },
      sensors: 2,
    }),
    report('b', '=Barn', 2, 8),
  ];
  const fleet = buildFleetReport(MARCH, plants);

  it('writes one summary row per plant in ranking order: commas, "." decimals, translated header', () => {
    const csv = summaryCsv(fleet, '2026-03', createTranslator('de'));
    const lines = csv.split('\r\n');
    expect(lines[0]).toMatch(/^Rang,Anlage,Zeitraum,Erzeugung kWh,Abdeckung Erzeugung,/);
    // Barn: 4 kWh/kWp, first; its name is kept from running as a formula.
    expect(lines[0]).toMatch(
      /,Verbrauch kWh,Abdeckung Verbrauch,erwarteter Verbrauch kWh,Verbrauch gegenüber Erwartung %,Grundlage erwarteter Verbrauch,.*,Alarme,Umfang,Erzeugung der Anlagen mit erwarteter Erzeugung kWh,Verbrauch der Anlagen mit erwartetem Verbrauch kWh$/,
    );
    // No location: no availability. The 23-hour Sunday expects 23 h × 2 kWh; no data-health map
    // on this server for Barn: those columns are empty, not 0.
    expect(lines[1]).toBe(
      "1,'=Barn,2026-03,8,0.5,20,61.5,4,,,,,1234.5,1,46,2583.7,WEEKS_BEFORE,,,,,,0,PLANT,8,1234.5",
    );
    expect(lines[2]).toBe(
      '2,"Roof, east",2026-03,12.3,0.5,20,61.5,3.08,,,,,1234.5,1,46,2583.7,WEEKS_BEFORE,0.98,0.5,3,1,0,0,PLANT,12.3,1234.5',
    );
    // The fleet's totals last, told by scope rather than a name: each expectation summed over
    // the plants with one, beside those plants' actual energy. (20.3 / 6 kWp = 3.38.)
    expect(lines[3]).toBe(',,2026-03,20.3,,40,,3.38,,,,,2469,,92,2583.7,,,,,,,0,FLEET,20.3,2469');
    expect(lines).toHaveLength(5);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it("has no fleet row in a plant's own report", () => {
    const csv = summaryCsv(
      buildFleetReport(MARCH, [plants[0]!]),
      '2026-03',
      createTranslator('en'),
    );
    expect(csv.split('\r\n')).toHaveLength(3);
    expect(csv).not.toContain('FLEET');
  });

  it('writes the days of every plant, local days as yyyy-MM-dd', () => {
    const csv = daysCsv(plants, createTranslator('it'));
    expect(csv.split('\r\n').slice(0, 2)).toEqual([
      'impianto,giorno,produzione kWh,copertura produzione,consumo kWh,copertura consumo',
      '"Roof, east",2026-03-29,12.3,0.5,1234.5,1',
    ]);
  });
});
