import { DateTime } from 'luxon';

/**
 * The server's notion of "now". By default the system clock; with a start instant (`--clock`,
 * `PLANTDESK_CLOCK`, `startServer({ clock })`) it starts there and advances in real time, so a
 * whole server (its default dates, forecasts, simulator and tokens) can run at a chosen
 * instant: night, noon, a DST change, New Year's Eve.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** What `--clock` accepts, for messages. */
export const CLOCK_FORMAT =
  'an ISO 8601 date-time with an offset, such as 2026-06-21T12:00:00+02:00 or 2026-06-21T10:00:00Z';

/**
 * The instant a clock option names, epoch ms. Only a full date-time with an explicit offset is
 * accepted: without one the instant would depend on the zone of the machine that reads it.
 */
export function parseClockStart(text: string): number {
  const trimmed = text.trim();
  const hasOffset = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(trimmed);
  const hasTime = /T\d{2}:\d{2}/.test(trimmed);
  const parsed = DateTime.fromISO(trimmed, { setZone: true });
  if (!hasOffset || !hasTime || !parsed.isValid) {
    throw new Error(`The clock must be ${CLOCK_FORMAT}, not '${text}'`);
  }
  return parsed.toMillis();
}

/**
 * A clock that reads `startMs` now and advances with `elapsed` (a monotonic source, so a
 * change of the system time does not move it).
 */
export function clockStartingAt(
  startMs: number,
  elapsedMs: () => number = () => performance.now(),
): Clock {
  const origin = elapsedMs();
  return () => new Date(startMs + (elapsedMs() - origin));
}

/** The clock for a start option: the system's without one. */
export function clockFrom(start: string | Date | number | undefined): Clock {
  if (start === undefined) return systemClock;
  const startMs = typeof start === 'string' ? parseClockStart(start) : new Date(start).getTime();
  if (!Number.isFinite(startMs)) throw new Error(`The clock must be ${CLOCK_FORMAT}`);
  return clockStartingAt(startMs);
}
