/** Live refresh intervals, as the issue asks: 10 s to 5 min. */
export const MIN_REFRESH_MS = 10_000;
export const MAX_REFRESH_MS = 300_000;

/** An interval clamped to 10 s..5 min (a non-number gives the minimum). */
export function clampRefreshInterval(ms: number): number {
  if (!Number.isFinite(ms)) return MIN_REFRESH_MS;
  return Math.min(MAX_REFRESH_MS, Math.max(MIN_REFRESH_MS, Math.round(ms)));
}
