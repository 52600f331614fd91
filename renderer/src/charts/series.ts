import { DateTime, type DurationLike } from 'luxon';
import type { ForecastPoint, Granularity, SeriesPoint } from '../../../api/schemas/metrics.ts';
import { GRANULARITIES, MAX_HISTORY_POINTS } from '../../../api/schemas/metrics.ts';
import type { BandPoint, ChartPoint, ChartSeries, CoveragePoint, SeriesRole } from './types.ts';

/**
 * Adapters from the metrics routes' JSON to chart points. Pure functions, no Vue, no Chart.js.
 *
 * The API's timestamps are ISO 8601 with the plant's offset (`2026-10-25T02:00:00+01:00`); they are
 * turned into instants (epoch ms) here and formatted back in the plant's zone by the time axis,
 * so two buckets with the same local wall time on a DST day stay two distinct points.
 */

/** Epoch ms of an ISO 8601 timestamp with an offset; throws on anything else. */
export function instantOf(timestamp: string): number {
  // An ISO string with an explicit offset names one instant: no zone rules are involved here
  // (those are in time.ts, through Luxon). Date.parse is many times faster than a Luxon parse,
  // which matters for 100,000-point series.
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) throw new Error(`Not an ISO 8601 timestamp: ${timestamp}`);
  return ms;
}

/** A measured series' points: `null` stays `null` (a gap, never 0), coverage is kept. */
export function seriesToPoints(series: {
  points: readonly Pick<SeriesPoint, 'timestamp' | 'value' | 'coverage'>[];
}): CoveragePoint[] {
  return series.points.map((point) => ({
    x: instantOf(point.timestamp),
    y: point.value,
    coverage: point.coverage,
  }));
}

/** A forecast's points with their 80 % interval. */
export function forecastToBand(forecast: {
  points: readonly Pick<ForecastPoint, 'timestamp' | 'value' | 'lower' | 'upper'>[];
}): BandPoint[] {
  return forecast.points.map((point) => ({
    x: instantOf(point.timestamp),
    y: point.value,
    lower: point.lower,
    upper: point.upper,
  }));
}

/** Only `{ x, y }`: what a chart dataset and a CSV column need. */
export function xyOf(points: readonly ChartPoint[]): ChartPoint[] {
  return points.map((point) => ({ x: point.x, y: point.y }));
}

/** A TimeChart dataset of a forecast, its 80 % interval as the filled band. */
export function bandSeries(
  label: string,
  unit: string,
  points: readonly BandPoint[],
  role: SeriesRole = 'forecast',
): ChartSeries {
  return {
    label,
    role,
    unit,
    points: points.map((point) => ({ x: point.x, y: point.y })),
    band: points.map((point) => ({ lower: point.lower, upper: point.upper })),
  };
}

/**
 * Points whose bucket has less than `threshold` of its time covered by data (0..1). `null` values
 * count as uncovered. For a "partial data" note next to a chart.
 */
export function lowCoverage(points: readonly CoveragePoint[], threshold = 1): CoveragePoint[] {
  return points.filter((point) => point.y === null || point.coverage < threshold);
}

/** Mean coverage (0..1) of a series; 1 for an empty one (nothing is missing). */
export function meanCoverage(points: readonly CoveragePoint[]): number {
  if (points.length === 0) return 1;
  return points.reduce((sum, point) => sum + point.coverage, 0) / points.length;
}

/**
 * Moves points by a calendar duration in the plant's zone (Luxon: `{ weeks: 1 }`, `{ months: 1 }`,
 * `{ years: 1 }`), keeping the local wall time: the previous period's 08:00 lands on this
 * period's 08:00 even across a DST change. For "compare with the previous period" overlays.
 */
export function shiftPoints<P extends ChartPoint>(
  points: readonly P[],
  zone: string,
  by: DurationLike,
): P[] {
  return points.map((point) => ({
    ...point,
    x: DateTime.fromMillis(point.x, { zone }).plus(by).toMillis(),
  }));
}

// ── Granularity and the point cap ───────────────────────────────────────────

/** Finest first, as the history routes order them. */
export const GRANULARITY_ORDER: readonly Granularity[] = GRANULARITIES;

/** The next coarser granularity (`seconds` → `minutes`), or null after `days`. */
export function coarserGranularity(granularity: Granularity): Granularity | null {
  const index = GRANULARITY_ORDER.indexOf(granularity);
  return GRANULARITY_ORDER[index + 1] ?? null;
}

/** What a 422 "too many points" answer of a history route says. */
export interface PointCap {
  /** The server's message, to show as is. */
  message: string;
  /** The granularity asked for, which gives too many points. */
  requested: Granularity | null;
  /** How many points it would give. */
  count: number | null;
  /** The finest coarser granularity that fits, or null when the range must be shortened. */
  suggested: Granularity | null;
  /** How many points the suggested granularity gives. */
  suggestedCount: number | null;
  /** The cap (100,000). */
  maximum: number;
}

const CAP_PATTERN = /more than the maximum of (\d+)/;
const REQUESTED_PATTERN = /^Granularity (seconds|minutes|hours|days) gives (\d+) points/;
const SUGGESTED_PATTERN =
  /use a coarser granularity: (seconds|minutes|hours|days)(?: \((\d+) points\))?/;

/**
 * Reads the history routes' point-cap message (server/measurements/metrics/powerHistory.ts):
 *   "Granularity minutes gives 128100 points from startDate … to endDate …, more than the maximum
 *    of 100000; use a coarser granularity: hours (2135 points)"
 * or "…; shorten the range". Null for any other message.
 */
export function parsePointCap(message: string): PointCap | null {
  const cap = CAP_PATTERN.exec(message);
  if (!cap) return null;
  const requested = REQUESTED_PATTERN.exec(message);
  const suggested = SUGGESTED_PATTERN.exec(message);
  return {
    message,
    requested: (requested?.[1] as Granularity | undefined) ?? null,
    count: requested?.[2] ? Number(requested[2]) : null,
    suggested: (suggested?.[1] as Granularity | undefined) ?? null,
    suggestedCount: suggested?.[2] ? Number(suggested[2]) : null,
    maximum: Number(cap[1]) || MAX_HISTORY_POINTS,
  };
}

/**
 * The point cap from a failed bridge call (a PlantDeskError of kind 'api', status 422, or
 * anything with such a message), or null when the failure is something else.
 */
export function pointCapOf(error: unknown): PointCap | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, message } = error as { status?: unknown; message?: unknown };
  if (status !== undefined && status !== 422) return null;
  return typeof message === 'string' ? parsePointCap(message) : null;
}

/** The granularity a 422 suggests, or null (not a point-cap error, or "shorten the range"). */
export function suggestedGranularity(error: unknown): Granularity | null {
  return pointCapOf(error)?.suggested ?? null;
}
