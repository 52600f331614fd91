/**
 * Data health: coverage per local day, gaps, counter resets and negative deltas, frozen values
 * and unit or sign suspicions of a sensor's readings. Pure; the server, main and the renderer
 * share it.
 */
export {
  assessSensorHealth,
  type RollupPart,
  type SensorHealth,
  type SensorHealthInput,
} from './assess.ts';
export { daysOnRollups, lastStandIn, standInTimes, type BucketSamples } from './rollupSamples.ts';
export { coverageOf, dailyCoverage, findGaps, heldSpans } from './coverage.ts';
export { counterIssues, COUNTER_TOLERANCE_KWH, RESET_SHARE } from './counters.ts';
export {
  daylightWithin,
  FROZEN_FACTOR,
  FROZEN_MIN_INTERVALS,
  FROZEN_AT_LIMIT_MIN_MS,
  FROZEN_MIN_MS,
  frozenPeriods,
  normalRunMs,
  valueRuns,
} from './frozen.ts';
export { NEGATIVE_SHARE, suspicions } from './suspicions.ts';
export type * from './types.ts';
export {
  periodCoverage,
  summarizeDataHealth,
  type DataHealthSummary,
  type PeriodCoverage,
  type SensorHealthSummary,
} from './summary.ts';
