import { productionVsClearSky } from './clearSkyCheck.ts';
import { energyBalance } from './energyBalance.ts';
import { powerUnits } from './powerUnits.ts';
import { pvSettingsCheck, timeZoneCheck } from './settingsChecks.ts';
import { gridSign, neverNegative, storageSign } from './signChecks.ts';
import type { WiringCheckResult, WiringInput } from './types.ts';

/**
 * Wiring and plausibility checks of commissioning (issue 14): pure functions of the plant,
 * its devices and sensors, their readings of the last 15 minutes and the current instant. No
 * I/O; importable from the renderer, the main process and the server.
 *
 * Each mistake is meant to be reported by one check: a check that compares a meter with others
 * is not judged while one of those others is already found wrong (reversed, or reporting in
 * the wrong unit), and says so (notApplicable), rather than blaming the wrong meter.
 */

const suspectsOf = (results: readonly WiringCheckResult[]): Set<string> =>
  new Set(
    results
      .filter((check) => check.status === 'fail' && check.subject !== null)
      .map((check) => check.subject!.uuid),
  );

/** Every check, in the order the screen shows them. */
export function runWiringChecks(input: WiringInput): WiringCheckResult[] {
  const production = neverNegative(input, 'PRODUCTION');
  const consumption = neverNegative(input, 'CONSUMPTION');
  const storage = storageSign(input);
  const units = powerUnits(input);
  // Checks on one meter alone come first; the comparisons defer to what they found.
  const perSensor = suspectsOf([...production, ...consumption, ...storage, ...units]);
  const grid = gridSign(input, perSensor);
  const allSuspects = new Set([...perSensor, ...suspectsOf(grid)]);
  return [
    ...production,
    ...consumption,
    ...grid,
    ...storage,
    energyBalance(input, allSuspects),
    productionVsClearSky(input, perSensor),
    ...units,
    pvSettingsCheck(input),
    timeZoneCheck(input),
  ];
}

export { productionVsClearSky } from './clearSkyCheck.ts';
export { energyBalance } from './energyBalance.ts';
export { powerUnits } from './powerUnits.ts';
export { proposeTimeZone, pvSettingsCheck, timeZoneCheck } from './settingsChecks.ts';
export { gridSign, neverNegative, storageSign } from './signChecks.ts';
export {
  CLEAR_SKY_ENHANCEMENT,
  DAYLIGHT_SUN_ELEVATION_DEG,
  FAR_ABOVE_CLEAR_SKY,
  GOOD_SUN_PEAK_SHARE,
  NOTHING_PEAK_SHARE,
} from './clearSkyCheck.ts';
export { SIGN_MIN_W, signThresholdW } from './context.ts';
export {
  ENERGY_BALANCE_TOLERANCE_MIN_W,
  ENERGY_BALANCE_TOLERANCE_PERCENT,
} from './energyBalance.ts';
export { KILO_RATIO_HIGH, KILO_RATIO_LOW } from './powerUnits.ts';
export { NEGATIVE_READING_W, SOC_MIN_CHANGE_POINTS } from './signChecks.ts';
export { WINDOW_MS } from './series.ts';
export {
  DIRECTION_RESPONSE_SHARE,
  DIRECTION_TEST_MIN_W,
  directionTest,
  type DirectionChange,
  type DirectionOutcome,
  type DirectionTestInput,
  type DirectionTestMeter,
  type DirectionTestResult,
} from './directionTest.ts';
export {
  WIRING_CHECK_IDS,
  WIRING_CHECK_TITLES,
  type Figure,
  type Reading,
  type WiringCheckId,
  type WiringCheckResult,
  type WiringDevice,
  type WiringDeviceCategory,
  type WiringFlow,
  type WiringInput,
  type WiringPlant,
  type WiringSensor,
  type WiringStatus,
} from './types.ts';
