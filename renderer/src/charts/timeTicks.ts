import { DateTime } from 'luxon';
import type { AppLocale } from '../../../i18n/locales.ts';

/**
 * Ticks of a time axis in the plant's zone: about `maxTicks` "nice" instants (every 15 minutes,
 * 3 hours, day, month…) aligned on the local wall clock, with local midnights (or first days of
 * months, or Januaries) marked major.
 *
 * Chart.js's own time ticks generate one tick per unit (840 minute ticks for a 14-hour view) and
 * then skip most of them, each through the date adapter: with a zone, that is thousands of
 * offset computations per redraw — most of the cost of panning a large chart. These are
 * computed directly, a dozen Luxon calls per redraw.
 */

export interface TimeTick {
  value: number;
  major: boolean;
  label: string;
}

type TickUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

interface Step {
  unit: TickUnit;
  count: number;
  /** Approximate length, to choose the step. */
  ms: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const STEPS: readonly Step[] = [
  ...[1, 2, 5, 10, 15, 30].map((count) => ({ unit: 'second' as const, count, ms: count * SECOND })),
  ...[1, 2, 5, 10, 15, 30].map((count) => ({ unit: 'minute' as const, count, ms: count * MINUTE })),
  ...[1, 2, 3, 6, 12].map((count) => ({ unit: 'hour' as const, count, ms: count * HOUR })),
  ...[1, 2].map((count) => ({ unit: 'day' as const, count, ms: count * DAY })),
  { unit: 'week', count: 1, ms: 7 * DAY },
  ...[1, 2, 3, 6].map((count) => ({ unit: 'month' as const, count, ms: count * 30.44 * DAY })),
  ...[1, 2, 5, 10, 20, 50, 100].map((count) => ({
    unit: 'year' as const,
    count,
    ms: count * 365.25 * DAY,
  })),
];

/** The finest step giving at most `maxTicks` ticks over `span` ms. */
export function tickStep(span: number, maxTicks: number): Step {
  const limit = Math.max(1, maxTicks);
  return STEPS.find((step) => span / step.ms <= limit) ?? STEPS[STEPS.length - 1]!;
}

const FIELD: Record<TickUnit, 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year' | null> = {
  second: 'second',
  minute: 'minute',
  hour: 'hour',
  day: null,
  week: null,
  month: 'month',
  year: 'year',
};

/** The first tick at or before `time`: the unit's start, its field a multiple of the count. */
function alignedStart(time: DateTime, step: Step): DateTime {
  let start = time.startOf(step.unit === 'week' ? 'week' : step.unit);
  const field = FIELD[step.unit];
  if (field && step.count > 1) {
    const value = start.get(field);
    // Months count from 1 (January, April, July…), years and clock fields from 0.
    const base = field === 'month' ? 1 : 0;
    start = start.set({ [field]: value - ((value - base) % step.count) });
  }
  return start;
}

/** The next tick: clock steps on the local clock, so 3-hour ticks stay on 00, 03, 06 across DST. */
function nextTick(tick: DateTime, step: Step): DateTime {
  switch (step.unit) {
    case 'second':
    case 'minute':
      return tick.plus({ [`${step.unit}s`]: step.count });
    case 'hour': {
      const hour = tick.hour + step.count;
      if (hour >= 24) return tick.startOf('day').plus({ days: 1 });
      const next = tick.startOf('day').set({ hour });
      // In a DST gap Luxon moves the time forward; never step backwards or stand still.
      return next.toMillis() > tick.toMillis() ? next : tick.plus({ hours: step.count });
    }
    case 'day':
      return tick.plus({ days: step.count });
    case 'week':
      return tick.plus({ weeks: step.count });
    case 'month':
      return tick.plus({ months: step.count });
    case 'year':
      return tick.plus({ years: step.count });
  }
}

function isMajor(tick: DateTime, step: Step): boolean {
  switch (step.unit) {
    case 'second':
    case 'minute':
    case 'hour':
      return tick.hour === 0 && tick.minute === 0 && tick.second === 0;
    case 'day':
    case 'week':
      return tick.day === 1;
    case 'month':
      return tick.month === 1;
    case 'year':
      return false;
  }
}

/** A day and its month as each language writes them on an axis: `29 Mar`, `29. Mär`, `29 mar`. */
export const DAY_MONTH: Record<AppLocale, string> = { en: 'd LLL', de: 'd. LLL', it: 'd LLL' };

function labelOf(tick: DateTime, step: Step, major: boolean, locale: AppLocale): string {
  const dayMonth = DAY_MONTH[locale];
  switch (step.unit) {
    case 'second':
      return major ? tick.toFormat(dayMonth) : tick.toFormat('HH:mm:ss');
    case 'minute':
    case 'hour':
      return major ? tick.toFormat(dayMonth) : tick.toFormat('HH:mm');
    case 'day':
    case 'week':
      return tick.toFormat(dayMonth);
    case 'month':
      return major ? tick.toFormat('yyyy') : tick.toFormat('LLL');
    case 'year':
      return tick.toFormat('yyyy');
  }
}

/**
 * The ticks within [min, max] (epoch ms) in `zone`, at most about `maxTicks` of them, month names
 * in `locale` (`29 Mar`, `29. Mär`, `29 mar`); the instants do not depend on the language.
 */
export function timeTicks(
  min: number,
  max: number,
  zone: string,
  maxTicks: number,
  locale: AppLocale = 'en',
): TimeTick[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max < min) return [];
  const step = tickStep(max - min, maxTicks);
  const ticks: TimeTick[] = [];
  let tick = alignedStart(DateTime.fromMillis(min, { zone, locale }), step);
  const cap = Math.max(1, maxTicks) * 2 + 2;
  while (tick.toMillis() <= max && ticks.length < cap) {
    const value = tick.toMillis();
    if (value >= min) {
      const major = isMajor(tick, step);
      ticks.push({ value, major, label: labelOf(tick, step, major, locale) });
    }
    tick = nextTick(tick, step);
  }
  return ticks;
}
