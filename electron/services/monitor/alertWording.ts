import { DateTime } from 'luxon';

/** How alerts write times, durations and power: in the plant's zone, rounded for reading. */

/** "14:05" today (in the plant's zone), "Mon 14:05" within a week, else "2026-11-02 14:05". */
export function formatClock(instantMs: number, zone: string, nowMs: number): string {
  const time = DateTime.fromMillis(instantMs, { zone });
  const today = DateTime.fromMillis(nowMs, { zone });
  if (time.hasSame(today, 'day')) return time.toFormat('HH:mm');
  if (Math.abs(nowMs - instantMs) < 6 * 86_400_000) return time.toFormat('ccc HH:mm');
  return time.toFormat('yyyy-MM-dd HH:mm');
}

/** "45 s", "12 min", "1 h 30 min", "2 d 4 h". */
export function formatAge(durationMs: number): string {
  const seconds = Math.max(0, Math.round(durationMs / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** "850 W", "3.4 kW", "1.2 MW"; three significant figures at most, sign kept. */
export function formatPower(watts: number): string {
  const size = Math.abs(watts);
  if (size >= 1e6) return `${round(watts / 1e6)} MW`;
  if (size >= 1000) return `${round(watts / 1000)} kW`;
  if (size >= 1) return `${Math.round(watts)} W`;
  return `${Number(watts.toPrecision(2))} W`;
}

const round = (value: number) => Number(value.toPrecision(Math.abs(value) >= 100 ? 3 : 2));

/** The plant-local minute of an instant, as the analytics links take it: yyyy-MM-ddTHH:mm. */
export function localMinute(instantMs: number, zone: string): string {
  return DateTime.fromMillis(instantMs, { zone }).toFormat("yyyy-MM-dd'T'HH:mm");
}
