import { HOURS_PER_DAY, slotKey } from '../../../server/forecasts/localSlots.ts';

/** Deterministic synthetic hourly loads for forecast tests. */

/** Mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Standard normal deviates by Box–Muller. */
export function seededNormal(seed: number): () => number {
  const uniform = seededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** A household-like daily shape: night trough, morning bump, evening peak (kWh per hour). */
export const dailyShape = (hour: number): number =>
  0.3 + 0.5 * Math.exp(-((hour - 7.5) ** 2) / 2) + 1.1 * Math.exp(-((hour - 19) ** 2) / 4);

/** Weekends at home: more at midday, a later morning. Day 0 = 1970-01-01, a Thursday. */
export function weeklyPattern(day: number, hour: number): number {
  const weekday = (day + 4) % 7; // 0 = Sunday
  const weekend = weekday === 0 || weekday === 6;
  return weekend
    ? dailyShape(hour - 1.5) + 0.6 * Math.exp(-((hour - 13) ** 2) / 6)
    : dailyShape(hour) * (weekday === 3 ? 1.3 : 1);
}

/** `days` days of hourly values from `firstDay`, the pattern × (1 + noise · N(0,1)), never below 0. */
export function syntheticHistory(
  firstDay: number,
  days: number,
  noise: number,
  seed = 1,
): Map<number, number> {
  const normal = seededNormal(seed);
  const history = new Map<number, number>();
  for (let day = firstDay; day < firstDay + days; day++) {
    for (let hour = 0; hour < HOURS_PER_DAY; hour++) {
      const value = weeklyPattern(day, hour) * (1 + noise * normal());
      history.set(slotKey(day, hour), Math.max(value, 0));
    }
  }
  return history;
}
