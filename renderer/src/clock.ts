/**
 * The renderer's "now": the host's clock. The host normally runs on the system clock, and then
 * this is `Date.now()`; an app started at a chosen instant (`--clock`) has the Local sandbox and
 * the host on that instant, and "today", quick ranges and "the last 15 minutes" must agree with
 * them. The offset is learnt once, from `app.info`, and differences within the round trip are
 * taken for what they are: no difference.
 */

/** Below this, a difference is the round trip or clock jitter, not a chosen instant. */
const TOLERANCE_MS = 2_000;

let offsetMs = 0;

/** Epoch ms on the host's clock. */
export function appNow(): number {
  return Date.now() + offsetMs;
}

/** The host's clock as a Date. */
export function appDate(): Date {
  return new Date(appNow());
}

/**
 * Follows the host's clock: `hostNowMs` was read by the host between `sentAtMs` and
 * `receivedAtMs` (this page's Date.now() before and after asking).
 */
export function followHostClock(hostNowMs: number, sentAtMs: number, receivedAtMs: number): void {
  const offset = hostNowMs - (sentAtMs + receivedAtMs) / 2;
  offsetMs = Math.abs(offset) <= Math.max(TOLERANCE_MS, receivedAtMs - sentAtMs) ? 0 : offset;
}

/** The offset in use, ms (tests; 0 on the system clock). */
export function hostClockOffsetMs(): number {
  return offsetMs;
}
