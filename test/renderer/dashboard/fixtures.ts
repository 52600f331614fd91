import { DateTime } from 'luxon';
import type {
  EnergyBreakdown,
  ForecastSeries,
  PvHealth,
  Series,
} from '../../../api/schemas/metrics.ts';
import { PLANT_UUID } from '../plants/fixtures.ts';

/**
 * Answers of the metrics routes for the dashboard's tests, for Demo Home (Europe/Rome) at
 * NOW = 2026-03-29 12:30 local: the day the clocks go forward (23 hours), so the hourly series
 * jump from 01:00 +01:00 to 03:00 +02:00.
 */
export const ZONE = 'Europe/Rome';
export const NOW = DateTime.fromISO('2026-03-29T12:30:00', { zone: ZONE }).toMillis();
export const TODAY = '2026-03-29';

const iso = (ms: number) =>
  DateTime.fromMillis(ms, { zone: ZONE }).toISO({ suppressMilliseconds: true })!;

function envelope(
  points: Series['points'],
  unit: string,
  bucketMs: (start: number) => number,
): Series {
  const first = Date.parse(points[0]!.timestamp);
  const last = Date.parse(points[points.length - 1]!.timestamp);
  return {
    plantUuid: PLANT_UUID,
    timezone: ZONE,
    unit,
    from: iso(first),
    to: iso(bucketMs(last)),
    points,
  };
}

/** 7 local days ending today; `values[6]` is today's (partial) value. */
export function daily(values: (number | null)[]): Series {
  const today = DateTime.fromMillis(NOW, { zone: ZONE }).startOf('day');
  const points = values.map((value, index) => ({
    timestamp: iso(today.minus({ days: 6 - index }).toMillis()),
    value,
    coverage: value === null ? 0 : index === 6 ? 0.52 : 1,
  }));
  return envelope(points, 'kWh', (start) =>
    DateTime.fromMillis(start, { zone: ZONE }).plus({ days: 1 }).toMillis(),
  );
}

/** 24 hours ending with the current one (instants, so the DST gap is skipped). */
export function hourly(value: (index: number) => number | null): Series {
  const current = DateTime.fromMillis(NOW, { zone: ZONE }).startOf('hour').toMillis();
  const points = Array.from({ length: 24 }, (_, index) => {
    const start = current - (23 - index) * 3_600_000;
    const v = value(index);
    return { timestamp: iso(start), value: v, coverage: v === null ? 0 : index === 23 ? 0.5 : 1 };
  });
  return envelope(points, 'kWh', (start) => start + 3_600_000);
}

/** Minute averages of the last 15 minutes; the current minute has no data yet. */
export function minutes(values: (number | null)[]): Series {
  const current = DateTime.fromMillis(NOW, { zone: ZONE }).startOf('minute').toMillis();
  const points = values.map((value, index) => ({
    timestamp: iso(current - (values.length - 1 - index) * 60_000),
    value,
    coverage: value === null ? 0 : 1,
  }));
  return envelope(points, 'W', (start) => start + 60_000);
}

export function forecast(method = 'test-model', hours = 48): ForecastSeries {
  const next = DateTime.fromMillis(NOW, { zone: ZONE })
    .startOf('hour')
    .plus({ hours: 1 })
    .toMillis();
  const points = Array.from({ length: hours }, (_, index) => ({
    timestamp: iso(next + index * 3_600_000),
    value: 1 + index / 10,
    lower: 0.5 + index / 10,
    upper: 1.5 + index / 10,
  }));
  return {
    plantUuid: PLANT_UUID,
    timezone: ZONE,
    unit: 'kWh',
    from: points[0]!.timestamp,
    to: iso(next + hours * 3_600_000),
    method,
    points,
  };
}

export function pvHealth(overrides: Partial<PvHealth> = {}): PvHealth {
  return {
    plantUuid: PLANT_UUID,
    timezone: ZONE,
    from: '2026-03-22T00:00:00+01:00',
    to: '2026-03-29T00:00:00+01:00',
    energyProducedKwh: 150.25,
    expectedEnergyKwh: 160,
    performancePercent: 93.9,
    performanceRatio: null,
    status: 'HEALTHY',
    indicators: [],
    ...overrides,
  };
}

export function breakdown(gridImportKwh: number | null = 3): EnergyBreakdown {
  const share = (name: string, energyKwh: number, percentage: number) => ({
    name,
    sensorUuid: null,
    deviceUuid: null,
    deviceTypeCode: null,
    energyKwh,
    percentage,
  });
  return {
    plantUuid: PLANT_UUID,
    timezone: ZONE,
    from: '2026-03-29T00:00:00+01:00',
    to: '2026-03-29T12:30:00+02:00',
    unit: 'kWh',
    loads: [share('Heat pump power', 9, 75), share('Unmeasured', 3, 25)],
    sources:
      gridImportKwh === null
        ? [share('PV production', 20, 100)]
        : [share('PV production', 20, 80), share('Grid import', gridImportKwh, 20)],
  };
}
