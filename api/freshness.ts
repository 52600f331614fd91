/**
 * Sensor freshness: whether a sensor's readings arrive as often as they should. One statement of
 * the rule for the server's `sensor-statuses` and `plant-summaries` and for any client that has
 * to work it out itself (a server without those extensions).
 *
 * - `NEVER`: the sensor has no reading at all.
 * - `REPORTING`: its last reading is at most LATE_AFTER_INTERVALS sampling intervals old.
 * - `LATE`: older than that, but not yet silent.
 * - `SILENT`: older than LATE_AFTER_INTERVALS intervals and than SILENT_AFTER_SECONDS (both), so
 *   a 1-minute sensor is late after 3 minutes and silent after 15, a 15-minute one silent after 45.
 *
 * A reading that is legitimately 0 (PV at night) is still a reading: freshness is about readings
 * arriving, not about their values.
 */

export const FRESHNESS_STATES = ['REPORTING', 'LATE', 'SILENT', 'NEVER'] as const;
export type FreshnessState = (typeof FRESHNESS_STATES)[number];

export const LATE_AFTER_INTERVALS = 3;
export const SILENT_AFTER_SECONDS = 15 * 60;

/**
 * The state of a sensor whose last reading was taken at `lastReadingAtMs` (null: never), with a
 * sampling interval of `intervalSeconds`, at `nowMs`. A reading from the future counts as fresh.
 */
export function freshnessState(
  lastReadingAtMs: number | null,
  intervalSeconds: number,
  nowMs: number,
): FreshnessState {
  if (lastReadingAtMs === null) return 'NEVER';
  const ageSeconds = (nowMs - lastReadingAtMs) / 1000;
  const lateAfter = LATE_AFTER_INTERVALS * Math.max(intervalSeconds, 1);
  if (ageSeconds <= lateAfter) return 'REPORTING';
  return ageSeconds > SILENT_AFTER_SECONDS ? 'SILENT' : 'LATE';
}
