import { DateTime } from 'luxon';
import type { EnergyBreakdown, Series } from '../../../../api/schemas/metrics.ts';

/**
 * The dashboard's own arithmetic, from the metrics routes' answers. Pure functions: no Vue,
 * no bridge.
 *
 * Self-consumption and self-sufficiency (the API has no route for them; defined here):
 *
 *   P = today's production        (daily-power-productions, today's point, kWh)
 *   C = today's consumption       (daily-power-consumptions, today's point, kWh)
 *   I = today's grid import       (sensor-history-energy from today 00:00 to now: the sources
 *                                  named "Grid import", the positive part of the grid meters)
 *   U = max(0, C − I)             the energy used on site that did not come from the grid: PV
 *                                  used directly, or through the battery it charged
 *
 *   self-sufficiency = U / C             share of consumption covered by own production
 *   self-consumption = min(U, P) / P     share of production used on site
 *
 * Both in percent, null when their denominator is missing or 0, and null when the plant has no
 * grid meter (I unknown). The energy stored in the battery and not yet discharged counts as
 * not used yet; a battery discharging yesterday's PV can make U exceed P, hence the min (capped
 * at 100 %). U is clamped at 0: meters that disagree slightly must not give negative shares.
 */

/** The name sensor-history-energy gives the positive part of each GRID sensor. */
export const GRID_IMPORT_SOURCE = 'Grid import';

export interface TodayEnergy {
  productionKwh: number | null;
  consumptionKwh: number | null;
  /** Null when the plant has no grid meter. */
  gridImportKwh: number | null;
}

export interface SelfShares {
  /** Percent 0..100 of production used on site. */
  selfConsumptionPercent: number | null;
  /** Percent 0..100 of consumption covered by own production. */
  selfSufficiencyPercent: number | null;
  /** U = max(0, C − I) in kWh, or null. */
  ownUseKwh: number | null;
}

const clampPercent = (value: number) => Math.min(100, Math.max(0, value * 100));

export function selfShares(today: TodayEnergy): SelfShares {
  const { productionKwh: p, consumptionKwh: c, gridImportKwh: i } = today;
  const ownUseKwh = c === null || i === null ? null : Math.max(0, c - i);
  return {
    ownUseKwh,
    selfSufficiencyPercent: ownUseKwh === null || !c ? null : clampPercent(ownUseKwh / c),
    selfConsumptionPercent:
      ownUseKwh === null || p === null || !p ? null : clampPercent(Math.min(ownUseKwh, p) / p),
  };
}

/** Grid import of a breakdown (every grid meter summed), or null when it has no grid meter. */
export function gridImportOf(breakdown: Pick<EnergyBreakdown, 'sources'>): number | null {
  const grid = breakdown.sources.filter((source) => source.name === GRID_IMPORT_SOURCE);
  return grid.length === 0 ? null : grid.reduce((total, source) => total + source.energyKwh, 0);
}

/** The point of `series` whose bucket is the local day `date` (yyyy-MM-dd), or null. */
export function pointOfDay(
  series: Pick<Series, 'points' | 'timezone'>,
  date: string,
): Series['points'][number] | null {
  return (
    series.points.find(
      (point) => DateTime.fromISO(point.timestamp, { zone: series.timezone }).toISODate() === date,
    ) ?? null
  );
}

/** The latest point with a value: `{ x: epoch ms of its bucket start, y }`, or null. */
export function latestSample(
  series: Pick<Series, 'points'>,
): { x: number; y: number; timestamp: string } | null {
  for (let index = series.points.length - 1; index >= 0; index--) {
    const point = series.points[index]!;
    if (point.value !== null) {
      return { x: Date.parse(point.timestamp), y: point.value, timestamp: point.timestamp };
    }
  }
  return null;
}

/** Epoch ms of the start of the local day holding `ms`. */
export function startOfLocalDay(ms: number, zone: string): number {
  return DateTime.fromMillis(ms, { zone }).startOf('day').toMillis();
}

/**
 * The window of the current power: the last `minutes` whole minutes and the current one, as the
 * history route's local startDate/endDate.
 */
export function currentPowerWindow(
  nowMs: number,
  zone: string,
  minutes = 15,
): { startDate: string; endDate: string } {
  const now = DateTime.fromMillis(nowMs, { zone }).startOf('minute');
  const format = "yyyy-MM-dd'T'HH:mm";
  const endDate = now.plus({ minutes: 1 }).toFormat(format);
  let startDate = now.minus({ minutes }).toFormat(format);
  // Just after the clocks go back, 15 minutes ago reads later than now: the history routes
  // compare local times as written, so start at the top of the (repeated) hour instead.
  if (startDate > endDate) startDate = now.startOf('hour').toFormat(format);
  return { startDate, endDate };
}

/**
 * The share of today so far that a daily point's figure rests on. The metrics' `coverage` is the
 * share of the whole local day (23, 24 or 25 hours) with data, so at noon a complete day so far
 * reads about 0.5: scaled to the part elapsed. Null when the server gave no coverage (a server
 * with the specification's fields only) or nothing has elapsed.
 */
export function coverageSoFar(
  coverage: unknown,
  zone: string,
  dayStartMs: number,
  nowMs: number,
): number | null {
  if (typeof coverage !== 'number' || !Number.isFinite(coverage)) return null;
  const dayEndMs = DateTime.fromMillis(dayStartMs, { zone }).plus({ days: 1 }).toMillis();
  const elapsedMs = Math.min(nowMs, dayEndMs) - dayStartMs;
  if (elapsedMs <= 0) return null;
  return Math.min(1, Math.max(0, (coverage * (dayEndMs - dayStartMs)) / elapsedMs));
}
