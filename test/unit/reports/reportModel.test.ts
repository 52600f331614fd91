import { describe, expect, it } from 'vitest';
import {
  alertsOfPeriod,
  buildFleetReport,
  buildPlantReport,
  dayEnergies,
  daysOf,
  energyFigure,
  isPast,
  joinWeeks,
  periodRange,
  previousMonth,
  weeklyReferenceDays,
  type DayEnergy,
  type ReportAlert,
} from '../../../server/domain/reports/index.ts';

const MARCH = { kind: 'month', year: 2026, month: 3 } as const;
const day = (d: string, kwh: number | null, coverage: number, hours = 24): DayEnergy => ({
  day: d,
  kwh,
  coverage,
  hours,
});

describe('report periods', () => {
  it('spans calendar months (leap Februaries) and years', () => {
    expect(periodRange({ kind: 'month', year: 2028, month: 2 })).toEqual({
      start: '2028-02-01',
      end: '2028-02-29',
    });
    expect(periodRange({ kind: 'year', year: 2026 })).toEqual({
      start: '2026-01-01',
      end: '2026-12-31',
    });
    expect(daysOf(periodRange(MARCH))).toHaveLength(31);
    expect(previousMonth('2026-01-05')).toEqual({ kind: 'month', year: 2025, month: 12 });
    expect(isPast(MARCH, '2026-03-31')).toBe(false);
    expect(isPast(MARCH, '2026-04-01')).toBe(true);
  });

  it('covers a month with weeks of the specification route, the last one ending on the last day', () => {
    expect(weeklyReferenceDays(periodRange(MARCH))).toEqual([
      '2026-03-07',
      '2026-03-14',
      '2026-03-21',
      '2026-03-28',
      '2026-03-31',
    ]);
  });
});

describe('energy figures', () => {
  it('weights coverage by the length of each local day (23 h on the spring change)', () => {
    // 24 h at full coverage and the 23-hour day at half: (24 + 11.5) / 47.
    const figure = energyFigure([day('2026-03-28', 10, 1), day('2026-03-29', 4, 0.5, 23)]);
    expect(figure).toEqual({ kwh: 14, coverage: 0.7553, daysWithData: 2 });
  });

  it('has no total when no day has data, and coverage 0', () => {
    expect(energyFigure([day('2026-03-01', null, 0)])).toEqual({
      kwh: null,
      coverage: 0,
      daysWithData: 0,
    });
  });

  it('reads day lengths from the series, DST day included', () => {
    const days = dayEnergies({
      plantUuid: 'p',
      timezone: 'Europe/Madrid',
      unit: 'kWh',
      from: '2026-03-28T00:00:00+01:00',
      to: '2026-03-30T00:00:00+02:00',
      points: [
        { timestamp: '2026-03-28T00:00:00+01:00', value: 1, coverage: 1 },
        { timestamp: '2026-03-29T00:00:00+01:00', value: null, coverage: 0 },
      ],
    });
    expect(days.map((d) => [d.day, d.hours])).toEqual([
      ['2026-03-28', 24],
      ['2026-03-29', 23],
    ]);
  });
});

const alert = (id: string, openedAt: string, resolvedAt: string | null): ReportAlert => ({
  id,
  rule: 'SENSOR_SILENT',
  severity: 'warning',
  subjectName: null,
  message: '',
  openedAt,
  resolvedAt,
});

describe('alerts of a period', () => {
  it('keeps alerts open at any moment of [from, to), in order of opening', () => {
    const from = '2026-03-01T00:00:00+01:00';
    const to = '2026-04-01T00:00:00+02:00';
    const kept = alertsOfPeriod(
      [
        alert('after', '2026-03-31T22:00:00Z', null),
        alert('before', '2026-02-01T00:00:00Z', '2026-02-28T22:59:59Z'),
        alert('spanning', '2026-02-20T00:00:00Z', '2026-03-02T00:00:00Z'),
        alert('open', '2026-03-31T21:59:00Z', null),
      ],
      from,
      to,
    );
    expect(kept.map((a) => a.id)).toEqual(['spanning', 'open']);
  });
});

describe('plant and fleet reports', () => {
  const plant = (uuid: string, name: string, peakPowerKw: number | null, kwh: number[]) =>
    buildPlantReport({
      plant: { uuid, name, timezone: 'Europe/Madrid', peakPowerKw },
      period: MARCH,
      from: '2026-03-01T00:00:00+01:00',
      to: '2026-04-01T00:00:00+02:00',
      production: kwh.map((value, index) => day(`2026-03-0${index + 1}`, value, 1)),
      consumption: null,
      health: {
        energyProducedKwh: kwh.reduce((a, b) => a + b, 0),
        expectedEnergyKwh: 20,
        performancePercent: 50,
        performanceRatio: 0.7,
        status: 'DEGRADED',
      },
      alerts: [],
    });

  it('takes expectation and PR from PV health, and gives PR the production coverage', () => {
    const report = plant('a', 'A', 4, [4, 6]);
    expect(report).toMatchObject({
      production: { kwh: 10, coverage: 1, daysWithData: 2 },
      consumption: null,
      expectedProductionKwh: 20,
      performancePercent: 50,
      specificYield: 2.5,
      performanceRatio: 0.7,
      performanceRatioCoverage: 1,
      // No location, no hours: availability and the expectation say why they are missing.
      availability: { ratio: null, missing: 'NO_LOCATION' },
      expectedConsumption: { expectedKwh: null, missing: 'NOT_READABLE', differencePercent: null },
      dataHealth: null,
    });
    expect(report.days[0]).toEqual({
      day: '2026-03-01',
      productionKwh: 4,
      productionCoverage: 1,
      consumptionKwh: null,
      consumptionCoverage: null,
    });
  });

  it('ranks plants by specific yield, plants without peak power last', () => {
    const fleet = buildFleetReport(MARCH, [
      plant('a', 'A', 4, [4, 6]),
      plant('b', 'B', 2, [3, 3]),
      plant('c', 'C', null, [1]),
    ]);
    expect(fleet.ranking).toEqual([
      { plantUuid: 'b', name: 'B', specificYield: 3, rank: 1 },
      { plantUuid: 'a', name: 'A', specificYield: 2.5, rank: 2 },
      { plantUuid: 'c', name: 'C', specificYield: null, rank: null },
    ]);
    // (10 + 6) / (4 + 2): the plant without peak power counts in the total only.
    expect(fleet).toMatchObject({
      productionKwh: 17,
      specificYield: 2.67,
      expectedProductionKwh: 60,
    });
  });
});

describe("the fleet's expected consumption", () => {
  /** February at 1 kWh an hour on every day: the expectation's basis for March's first week. */
  const FEBRUARY = daysOf({ start: '2026-02-01', end: '2026-02-28' }).map((d) => day(d, 24, 1));
  const WEEK = daysOf({ start: '2026-03-01', end: '2026-03-07' });
  const consumer = (uuid: string, kwh: (number | null)[], history: DayEnergy[] | null) =>
    buildPlantReport({
      plant: { uuid, name: uuid, timezone: 'UTC', peakPowerKw: null },
      period: MARCH,
      from: '2026-03-01T00:00:00Z',
      to: '2026-04-01T00:00:00Z',
      production: null,
      consumption: WEEK.map((d, index) => day(d, kwh[index] ?? null, kwh[index] == null ? 0 : 1)),
      health: null,
      alerts: [],
      consumptionHistory: { weeksBefore: history, yearBefore: null },
    });

  it("sums the expectations and sets them against those plants' consumption only", () => {
    const fleet = buildFleetReport(MARCH, [
      // 7 days × 24 kWh expected, 7 × 30 used: +25 %.
      consumer('a', Array(7).fill(30), FEBRUARY),
      // Expected 168 too, used 7 × 18.
      consumer('b', Array(7).fill(18), FEBRUARY),
      // No history: no expectation, and its 700 kWh stay out of the comparison.
      consumer('c', Array(7).fill(100), null),
    ]);
    expect(fleet).toMatchObject({
      consumptionKwh: 210 + 126 + 700,
      expectedConsumptionKwh: 336,
      consumptionOfExpectedPlantsKwh: 336,
      consumptionDifferencePercent: 0,
    });
    const [a] = fleet.plants;
    expect(a!.expectedConsumption.differencePercent).toBe(25);
  });

  it('gives no difference when a plant with an expectation has no consumption figure', () => {
    const fleet = buildFleetReport(MARCH, [
      consumer('a', Array(7).fill(30), FEBRUARY),
      consumer('silent', Array(7).fill(null), FEBRUARY),
    ]);
    expect(fleet).toMatchObject({
      expectedConsumptionKwh: 336,
      consumptionOfExpectedPlantsKwh: 210,
      consumptionDifferencePercent: null,
    });
  });

  it('has no expectation when no plant has one', () => {
    const fleet = buildFleetReport(MARCH, [consumer('c', Array(7).fill(100), null)]);
    expect(fleet).toMatchObject({
      expectedConsumptionKwh: null,
      consumptionOfExpectedPlantsKwh: null,
      consumptionDifferencePercent: null,
    });
  });
});

describe('weeks of the specification route joined into a period', () => {
  it('keeps each day of the range once and ends at the next day start', () => {
    const week = (days: string[], to: string) => ({
      plantUuid: 'p',
      timezone: 'UTC',
      unit: 'kWh',
      from: `${days[0]}T00:00:00Z`,
      to,
      points: days.map((d) => ({ timestamp: `${d}T00:00:00Z`, value: 1, coverage: 1 })),
    });
    const joined = joinWeeks(
      [
        week(['2026-02-28', '2026-03-01'], '2026-03-02T00:00:00Z'),
        week(['2026-03-01', '2026-03-02'], '2026-03-03T00:00:00Z'),
      ],
      { start: '2026-03-01', end: '2026-03-01' },
    );
    expect(joined.points.map((p) => p.timestamp)).toEqual(['2026-03-01T00:00:00Z']);
    expect([joined.from, joined.to]).toEqual(['2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z']);
  });
});
