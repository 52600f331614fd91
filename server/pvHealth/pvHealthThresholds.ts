/**
 * When a PV plant counts as degraded or faulty, and the assumptions behind its expected energy.
 * Server option `pvHealth` (see the README, "PV health"); every field is optional there.
 */
export interface PvHealthThresholds {
  /** Performance (produced / expected, %) below which the plant is DEGRADED. */
  degradedBelowPercent: number;
  /** Performance below which it is a FAULT (as is a day of daylight without production). */
  faultBelowPercent: number;
  /** A day whose daylight has production data for less than this share of it is a data gap. */
  minDaylightCoverage: number;
  /**
   * Clear-sky index assumed for the expected energy without an irradiance sensor: the share of
   * clear-sky energy a typical period brings (0.6 suits mid-latitudes; deserts are nearer 0.85).
   */
  climatologicalClearSkyIndex: number;
}

export const DEFAULT_PV_HEALTH_THRESHOLDS: PvHealthThresholds = {
  degradedBelowPercent: 80,
  faultBelowPercent: 50,
  minDaylightCoverage: 0.9,
  climatologicalClearSkyIndex: 0.6,
};

/** The defaults with `overrides` on top; a threshold that makes no sense is a startup error. */
export function resolvePvHealthThresholds(
  overrides: Partial<PvHealthThresholds> = {},
): PvHealthThresholds {
  const thresholds = { ...DEFAULT_PV_HEALTH_THRESHOLDS, ...overrides };
  const { degradedBelowPercent, faultBelowPercent, minDaylightCoverage } = thresholds;
  if (!(faultBelowPercent >= 0 && faultBelowPercent <= degradedBelowPercent)) {
    throw new RangeError(
      `pvHealth.faultBelowPercent (${faultBelowPercent}) must be from 0 to degradedBelowPercent (${degradedBelowPercent})`,
    );
  }
  if (!(minDaylightCoverage >= 0 && minDaylightCoverage <= 1)) {
    throw new RangeError(
      `pvHealth.minDaylightCoverage (${minDaylightCoverage}) must be from 0 to 1`,
    );
  }
  if (!(
    thresholds.climatologicalClearSkyIndex > 0 && thresholds.climatologicalClearSkyIndex <= 1.2
  )) {
    throw new RangeError(
      `pvHealth.climatologicalClearSkyIndex (${thresholds.climatologicalClearSkyIndex}) must be in (0, 1.2]`,
    );
  }
  return thresholds;
}
