import type { Reading } from '../../measurements/readingsStore.ts';

/**
 * A sensor's readings of the last minutes for a live view (a sparkline, the wiring checks): at
 * most one point a minute, the last reading of each minute-long slice of the window, so a sensor
 * sampling every second costs 15 points and one sampling every 5 minutes keeps its own readings.
 * Slices are counted back from `nowMs`, not on clock minutes, so the window always holds at
 * most RECENT_MINUTES points however `nowMs` falls in its minute. Pure.
 */

export const RECENT_MINUTES = 15;
const MINUTE_MS = 60_000;

/** The readings taken in (nowMs − RECENT_MINUTES min, nowMs], thinned, oldest first. */
export function recentPoints(readings: readonly Reading[], nowMs: number): Reading[] {
  const fromMs = nowMs - RECENT_MINUTES * MINUTE_MS;
  const points: Reading[] = [];
  let lastSlice: number | undefined;
  for (const reading of readings) {
    if (reading.takenAt <= fromMs || reading.takenAt > nowMs) continue;
    // Slice 0 is the minute ending at nowMs; readings come in time order, slices count down.
    const slice = Math.floor((nowMs - reading.takenAt) / MINUTE_MS);
    if (slice === lastSlice) points[points.length - 1] = reading;
    else points.push(reading);
    lastSlice = slice;
  }
  return points;
}
