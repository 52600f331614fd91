import { MINUTE_MS, MINUTES_PER_DAY, type PlantClock } from './plantClock.ts';
import type { WeatherDay } from './weather.ts';

/** What every load's day simulation is given. */
export interface LoadDayInput {
  /** The load's own seed (its randomness is independent of the other loads'). */
  seed: number;
  /** UTC day: days since 1970-01-01. */
  dayIndex: number;
  clock: PlantClock;
  weather: WeatherDay;
}

/** The first minute of UTC day `dayIndex`, in epoch minutes. */
export function firstMinuteOf(dayIndex: number): number {
  return dayIndex * MINUTES_PER_DAY;
}

/** The local days whose events can reach into UTC day `dayIndex` (one before, for overnight). */
export function localDaysTouching(clock: PlantClock, dayIndex: number): number[] {
  const startMs = dayIndex * MINUTES_PER_DAY * MINUTE_MS;
  const first = clock.localDay(startMs) - 1;
  const last = clock.localDay(startMs + MINUTES_PER_DAY * MINUTE_MS - 1);
  const days: number[] = [];
  for (let day = first; day <= last; day++) days.push(day);
  return days;
}

/**
 * Adds `powerW` over [startMs, startMs + durationMinutes) to the day's per-minute array,
 * clipped to the day; a partly covered minute gets the average, so energy is exact.
 */
export function addBlock(
  watts: Float64Array,
  dayIndex: number,
  startMs: number,
  durationMinutes: number,
  powerW: number,
): void {
  const dayStartMs = dayIndex * MINUTES_PER_DAY * MINUTE_MS;
  const from = (startMs - dayStartMs) / MINUTE_MS;
  const to = from + durationMinutes;
  const first = Math.max(Math.floor(from), 0);
  const last = Math.min(Math.ceil(to), MINUTES_PER_DAY);
  for (let index = first; index < last; index++) {
    const overlap = Math.min(to, index + 1) - Math.max(from, index);
    if (overlap > 0) watts[index] = watts[index]! + powerW * overlap;
  }
}

/**
 * Average power (W) of a load signature at local hour `hour` (fractional): the hourly shares
 * joined linearly between hour midpoints, times the typical daily energy.
 */
export function profilePowerW(
  hourlyProfile: readonly number[],
  typicalDailyKwh: number,
  hour: number,
): number {
  const position = hour - 0.5;
  const lower = Math.floor(position);
  const fraction = position - lower;
  const at = (h: number) => hourlyProfile[((h % 24) + 24) % 24] ?? 0;
  const share = at(lower) + (at(lower + 1) - at(lower)) * fraction;
  return share * typicalDailyKwh * 1000;
}

/**
 * A local time of day (minutes) drawn from a load signature's hourly shares: `draw` in [0, 1)
 * picks the hour by inverse CDF, `within` in [0, 1) the minute inside it.
 */
export function minuteFromProfile(
  hourlyProfile: readonly number[],
  draw: number,
  within: number,
): number {
  const total = hourlyProfile.reduce((sum, share) => sum + Math.max(share, 0), 0);
  if (!(total > 0)) return Math.floor(draw * MINUTES_PER_DAY);
  let remaining = draw * total;
  for (let hour = 0; hour < 24; hour++) {
    remaining -= Math.max(hourlyProfile[hour] ?? 0, 0);
    if (remaining < 0) return hour * 60 + Math.floor(within * 60);
  }
  return 23 * 60 + Math.floor(within * 60);
}

/**
 * Duty cycling: a load that must average `meanW` but runs only at `onW` is on for part of each
 * window of `windowMinutes`, starting at `phase` (0..1) of the free time; energy per window is
 * exact (the last minute runs partly). Returns the power of minute `minuteInWindow`.
 */
export function dutyCycledPowerW(
  meanW: number,
  onW: number,
  windowMinutes: number,
  minuteInWindow: number,
  phase: number,
): number {
  if (!(onW > 0) || !(meanW > 0)) return 0;
  const onMinutes = Math.min(meanW / onW, 1) * windowMinutes;
  const start = Math.floor(phase * (windowMinutes - Math.ceil(onMinutes)));
  const position = minuteInWindow - start;
  if (position < 0) return 0;
  if (position + 1 <= onMinutes) return onW;
  if (position < onMinutes) return onW * (onMinutes - position);
  return 0;
}
