import type { FreshnessState } from '../../../../api/freshness.ts';
import type { SensorStatus } from '../../../../api/schemas/fleet.ts';
import { inZone } from '../../charts/time.ts';
import { decimalsFor, NO_DATA, scaleBy1000 } from '../../charts/units.ts';
import type { Formatters } from '../../../../i18n/format.ts';
import type { Translate } from '../../../../i18n/translator.ts';
import { currentFormatters, translate } from '../../i18n.ts';

/**
 * What a sensor's freshness reads on screen: the state's words and colour, the last value with
 * its age, the exact time in the plant's zone, the 24-hour coverage, and whether the sensor has
 * been reporting one and the same value for so long that it deserves a mention. Pure: the time
 * (`nowMs`) and the zone are given, every zone conversion goes through Luxon. Words and figures
 * come from `t` and `f`; they default to the app's language at the moment of the call (a render),
 * which is what the screens sharing these functions want; tests pass their own.
 */

/** A state's words: `sensors.freshness.states.<state>`. */
export function freshnessLabel(state: FreshnessState, t: Translate = translate): string {
  return t(`sensors.freshness.states.${state}`);
}

/** PrimeVue Tag severities. */
export const FRESHNESS_SEVERITIES: Record<
  FreshnessState,
  'success' | 'warn' | 'danger' | 'secondary'
> = {
  REPORTING: 'success',
  LATE: 'warn',
  SILENT: 'danger',
  NEVER: 'secondary',
};

/**
 * An unchanged value is worth saying after this long and this many sampling intervals (both):
 * a 1-minute meter after an hour, a 15-minute one after 10 of its readings.
 */
export const SAME_VALUE_AFTER_MS = 60 * 60_000;
export const SAME_VALUE_AFTER_INTERVALS = 10;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Elapsed time, not wall-clock difference: "40 s ago", "12 min ago", "5 h ago", "3 days ago".
 * Across a DST change an hour ago is "1 h ago" although the clocks moved by two. A time in the
 * future (clocks a little apart) is "just now".
 */
export function ageText(fromMs: number, nowMs: number, t: Translate = translate): string {
  const elapsed = nowMs - fromMs;
  if (elapsed < 5_000) return t('sensors.freshness.age.justNow');
  const ago = (unit: string, n: number) => t(`sensors.freshness.age.${unit}`, { n }, n);
  if (elapsed < 90_000) return ago('seconds', Math.round(elapsed / 1000));
  if (elapsed < 90 * MINUTE) return ago('minutes', Math.round(elapsed / MINUTE));
  if (elapsed < 2 * DAY) return ago('hours', Math.round(elapsed / HOUR));
  return ago('days', Math.floor(elapsed / DAY));
}

/**
 * The exact instant in the plant's zone, for a tooltip:
 * `2026-03-29 03:05:00 UTC+02:00 (Europe/Rome)`.
 */
export function exactTimeText(ms: number, zone: string): string {
  return `${inZone(ms, zone).toFormat("yyyy-MM-dd HH:mm:ss 'UTC'ZZ")} (${zone})`;
}

/**
 * A short time in the plant's zone: `14:05` on the same local day as `nowMs`, else
 * `2026-03-28 14:05`. Within the repeated hour of a DST end the offset is added, since
 * `02:30` alone would name two instants.
 */
export function shortTimeText(ms: number, zone: string, nowMs: number): string {
  const time = inZone(ms, zone);
  const sameDay = time.hasSame(inZone(nowMs, zone), 'day');
  const text = time.toFormat(sameDay ? 'HH:mm' : 'yyyy-MM-dd HH:mm');
  return time.getPossibleOffsets().length > 1 ? `${text} UTC${time.toFormat('ZZ')}` : text;
}

/**
 * When a REPORTING sensor's value has not changed for long (and is not a rest value such as
 * 0 W at night), the instant it last changed; else null. A sensor that does not report is a
 * different problem, said by its state.
 */
export function sameValueSinceMs(status: SensorStatus, nowMs: number): number | null {
  if (status.state !== 'REPORTING' || status.valueAtRest || status.lastChangedAt === null) {
    return null;
  }
  const changedAt = Date.parse(status.lastChangedAt);
  const threshold = Math.max(
    SAME_VALUE_AFTER_MS,
    SAME_VALUE_AFTER_INTERVALS * status.expectedIntervalSeconds * 1000,
  );
  return nowMs - changedAt >= threshold ? changedAt : null;
}

const POWER_UNITS = ['W', 'kW', 'MW', 'GW'] as const;
const ENERGY_UNITS = ['kWh', 'MWh', 'GWh', 'TWh'] as const;

/**
 * The last value with its unit, power and energy scaled (`12.3 kW`, `1.52 MWh`), with the
 * charts' decimals (three significant digits) in the language's own digits; `—` without one.
 */
export function lastValueText(status: SensorStatus, f: Formatters = currentFormatters()): string {
  const value = status.lastValue;
  if (value === null || Number.isNaN(value)) return NO_DATA;
  const unit = status.unit ?? '';
  const fixed = (shown: number) => f.number(shown, decimalsFor(shown), decimalsFor(shown));
  if (unit === 'W' || unit === 'kWh') {
    const scaled = scaleBy1000(value, unit === 'W' ? POWER_UNITS : ENERGY_UNITS);
    return `${fixed(scaled.value)} ${scaled.unit}`;
  }
  if (unit === '%') return f.percent(value / 100, 1);
  return unit ? `${fixed(value)} ${unit}` : fixed(value);
}

/** Share of the last 24 hours with data, `98%`; rounded down, so `100%` means complete. */
export function coverageText(coverage24h: number, f: Formatters = currentFormatters()): string {
  return f.percent(Math.floor(Math.min(1, Math.max(0, coverage24h)) * 100) / 100);
}

export interface FreshnessView {
  label: string;
  severity: (typeof FRESHNESS_SEVERITIES)[FreshnessState];
  /** `12.3 kW · 2 min ago`, or `No reading yet`. */
  reading: string;
  /** The exact time of the last reading, in the zone; null without a reading. */
  readingTitle: string | null;
  /** `same value since 14:05`, or null. */
  sameValue: string | null;
  /** The exact time the value last changed, in the zone; null when `sameValue` is null. */
  sameValueTitle: string | null;
  /** `98%`. */
  coverage: string;
  /** One sentence with all of it, for a screen reader or a summary. */
  description: string;
}

/** Everything a sensor's freshness shows, at `nowMs` in `zone`. */
export function describeFreshness(
  status: SensorStatus,
  zone: string,
  nowMs: number,
  t: Translate = translate,
  f: Formatters = currentFormatters(),
): FreshnessView {
  const label = freshnessLabel(status.state, t);
  const readingMs = status.lastReadingAt === null ? null : Date.parse(status.lastReadingAt);
  const reading =
    readingMs === null
      ? t('sensors.freshness.noReading')
      : t('sensors.freshness.reading', {
          value: lastValueText(status, f),
          age: ageText(readingMs, nowMs, t),
        });
  const readingTitle = readingMs === null ? null : exactTimeText(readingMs, zone);
  const changedMs = sameValueSinceMs(status, nowMs);
  const sameValue =
    changedMs === null
      ? null
      : t('sensors.freshness.sameValue', { time: shortTimeText(changedMs, zone, nowMs) });
  const coverage = coverageText(status.coverage24h, f);
  const parts = [
    label,
    readingMs === null ? reading : t('sensors.freshness.lastReading', { reading }),
  ];
  if (sameValue) parts.push(sameValue);
  parts.push(t('sensors.freshness.covered', { coverage }));
  return {
    label,
    severity: FRESHNESS_SEVERITIES[status.state],
    reading,
    readingTitle,
    sameValue,
    sameValueTitle: changedMs === null ? null : exactTimeText(changedMs, zone),
    coverage,
    description: parts.join(', '),
  };
}

/** The sensors that need a look on the dashboard: not reporting, or stuck on one value. */
export function sensorsNeedingAttention(
  statuses: readonly SensorStatus[],
  nowMs: number,
): SensorStatus[] {
  return statuses.filter(
    (status) => status.state !== 'REPORTING' || sameValueSinceMs(status, nowMs) !== null,
  );
}

/** `All 4 sensors reporting`, `3 of 4 sensors reporting`, `No sensors yet`. */
export function reportingSummary(
  statuses: readonly SensorStatus[],
  t: Translate = translate,
): string {
  const total = statuses.length;
  if (total === 0) return t('sensors.freshness.summary.none');
  const reporting = statuses.filter((status) => status.state === 'REPORTING').length;
  if (reporting === total) return t('sensors.freshness.summary.all', { n: total }, total);
  return t('sensors.freshness.summary.some', { reporting, n: total }, total);
}
