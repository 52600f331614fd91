import { describe, expect, test } from 'vitest';
import {
  formatAsOf,
  formatInZone,
  isAmbiguousLocalTime,
  isoInZone,
  localDateOf,
  localDateTimeOf,
  offsetLabel,
  zoneLabel,
} from '../../../../renderer/src/charts/time.ts';

describe('zone labels', () => {
  test('names the zone with its offset at the instant', () => {
    expect(zoneLabel('Europe/Rome', Date.UTC(2026, 0, 15))).toBe('Europe/Rome (UTC+01:00)');
    expect(zoneLabel('Europe/Rome', Date.UTC(2026, 6, 15))).toBe('Europe/Rome (UTC+02:00)');
    expect(zoneLabel('Asia/Kolkata', Date.UTC(2026, 6, 15))).toBe('Asia/Kolkata (UTC+05:30)');
    expect(zoneLabel('Asia/Kathmandu', Date.UTC(2026, 6, 15))).toBe('Asia/Kathmandu (UTC+05:45)');
    expect(zoneLabel('America/New_York', Date.UTC(2026, 0, 15))).toBe(
      'America/New_York (UTC-05:00)',
    );
    expect(offsetLabel('UTC', 0)).toBe('UTC+00:00');
  });

  test('an unknown zone throws rather than silently using the computer zone', () => {
    expect(() => zoneLabel('Mars/Olympus', 0)).toThrow('Invalid time zone');
  });
});

describe('formatInZone', () => {
  const x = Date.UTC(2026, 2, 29, 10, 5, 7); // 12:05:07 +02:00 in Rome
  test('each granularity', () => {
    expect(formatInZone(x, 'Europe/Rome', 'seconds')).toBe('2026-03-29 12:05:07');
    expect(formatInZone(x, 'Europe/Rome', 'minutes')).toBe('2026-03-29 12:05');
    expect(formatInZone(x, 'Europe/Rome', 'hours')).toBe('2026-03-29 12:05');
    expect(formatInZone(x, 'Europe/Rome', 'days')).toBe('2026-03-29');
    expect(formatInZone(x, 'Europe/Rome', 'month')).toBe('2026-03');
    expect(formatInZone(x, 'Europe/Rome', 'clock')).toBe('12:05:07');
    expect(formatInZone(x, 'Asia/Kathmandu', 'minutes')).toBe('2026-03-29 15:50');
  });

  test('the repeated hour of a DST end carries its offset; days do not', () => {
    const first = Date.UTC(2026, 9, 25, 0, 30); // 02:30 +02:00
    const second = Date.UTC(2026, 9, 25, 1, 30); // 02:30 +01:00
    expect(isAmbiguousLocalTime(first, 'Europe/Rome')).toBe(true);
    expect(isAmbiguousLocalTime(second, 'Europe/Rome')).toBe(true);
    expect(isAmbiguousLocalTime(Date.UTC(2026, 9, 25, 2, 30), 'Europe/Rome')).toBe(false);
    expect(formatInZone(first, 'Europe/Rome', 'minutes')).toBe('2026-10-25 02:30 +02:00');
    expect(formatInZone(second, 'Europe/Rome', 'minutes')).toBe('2026-10-25 02:30 +01:00');
    expect(formatInZone(second, 'Europe/Rome', 'clock')).toBe('02:30:00 +01:00');
    expect(formatInZone(second, 'Europe/Rome', 'days')).toBe('2026-10-25');
    // Not in Kolkata, which has no DST.
    expect(formatInZone(first, 'Asia/Kolkata', 'minutes')).toBe('2026-10-25 06:00');
  });
});

describe('isoInZone', () => {
  test('writes the offset as the API does, +00:00 included', () => {
    expect(isoInZone(Date.UTC(2026, 2, 29, 1), 'Europe/Rome')).toBe('2026-03-29T03:00:00+02:00');
    expect(isoInZone(Date.UTC(2026, 2, 29, 0, 59), 'Europe/Rome')).toBe(
      '2026-03-29T01:59:00+01:00',
    );
    expect(isoInZone(Date.UTC(2026, 0, 1), 'UTC')).toBe('2026-01-01T00:00:00+00:00');
    expect(isoInZone(Date.UTC(2026, 0, 1, 0, 0, 0, 5), 'Asia/Kathmandu')).toBe(
      '2026-01-01T05:45:00.005+05:45',
    );
  });
});

describe('dates for the routes', () => {
  test('local date and date-time in the zone', () => {
    const x = Date.UTC(2026, 2, 28, 23, 30); // 00:30 +01:00 on the 29th in Rome
    expect(localDateOf(x, 'Europe/Rome')).toBe('2026-03-29');
    expect(localDateOf(x, 'UTC')).toBe('2026-03-28');
    expect(localDateTimeOf(x, 'Europe/Rome')).toBe('2026-03-29T00:30');
  });

  test('"data as of": the clock today, the date too otherwise', () => {
    const now = Date.UTC(2026, 2, 29, 12);
    expect(formatAsOf(Date.UTC(2026, 2, 29, 11, 59, 58), 'Europe/Rome', now)).toBe('13:59:58');
    expect(formatAsOf(Date.UTC(2026, 2, 28, 22, 0, 0), 'Europe/Rome', now)).toBe(
      '2026-03-28 23:00:00',
    );
  });
});

describe('dates in German and Italian', () => {
  const x = Date.UTC(2026, 2, 29, 10, 5, 7); // 12:05:07 +02:00 in Rome
  test('numeric dates in the language, the repeated hour still with its offset', () => {
    expect(formatInZone(x, 'Europe/Rome', 'minutes', 'de')).toBe('29.03.2026 12:05');
    expect(formatInZone(x, 'Europe/Rome', 'days', 'de')).toBe('29.03.2026');
    expect(formatInZone(x, 'Europe/Rome', 'month', 'it')).toBe('03/2026');
    expect(formatInZone(x, 'Europe/Rome', 'seconds', 'it')).toBe('29/03/2026 12:05:07');
    const second = Date.UTC(2026, 9, 25, 1, 30); // 02:30 +01:00
    expect(formatInZone(second, 'Europe/Rome', 'minutes', 'de')).toBe('25.10.2026 02:30 +01:00');
    expect(formatAsOf(x, 'Europe/Rome', x + 86_400_000, 'de')).toBe('29.03.2026 12:05:07');
    expect(formatAsOf(x, 'Europe/Rome', x + 60_000, 'de')).toBe('12:05:07');
  });
});
