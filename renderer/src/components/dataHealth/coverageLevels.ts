/**
 * The heat map's colour classes: a day's coverage (0..1, null for days to come) to a level, the
 * same for every cell and the legend.
 */
export const COVERAGE_LEVELS = ['full', 'high', 'partial', 'low', 'none', 'future'] as const;
export type CoverageLevel = (typeof COVERAGE_LEVELS)[number];

export const HIGH_FROM = 0.9;
export const PARTIAL_FROM = 0.5;
/** Coverage is rounded to a millionth: this close to 1 is complete. */
const FULL_FROM = 0.9999;

/**
 * Whether a sensor's day rests on 15-minute rollups (raw retention dropped its raw readings):
 * its cell is hatched, and its counter resets and frozen values were not assessed. A server
 * without the field knows raw readings only.
 */
export function onRollups(
  resolution: readonly (string | null)[] | undefined,
  day: number,
): boolean {
  return resolution?.[day] === '15min';
}

export function coverageLevel(coverage: number | null | undefined): CoverageLevel {
  if (coverage === null || coverage === undefined) return 'future';
  if (coverage >= FULL_FROM) return 'full';
  if (coverage >= HIGH_FROM) return 'high';
  if (coverage >= PARTIAL_FROM) return 'partial';
  return coverage > 0 ? 'low' : 'none';
}
