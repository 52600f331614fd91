import { describe, expect, test } from 'vitest';
import type { SensorStatus } from '../../../api/schemas/fleet.ts';
import {
  ageText,
  coverageText,
  describeFreshness,
  exactTimeText,
  freshnessLabel,
  reportingSummary,
  sameValueSinceMs,
  sensorsNeedingAttention,
  shortTimeText,
} from '../../../renderer/src/components/sensors/freshnessText.ts';
import { formattersFor } from '../../../i18n/format.ts';
import { createTranslator } from '../../../i18n/translator.ts';

const t = createTranslator('en');
const f = formattersFor('en');

const ROME = 'Europe/Rome';
const at = (iso: string) => Date.parse(iso);
const MIN = 60_000;

function status(overrides: Partial<SensorStatus> = {}): SensorStatus {
  return {
    sensorUuid: '00000000-0000-4000-8000-000000000701',
    name: 'PV meter',
    deviceUuid: null,
    flow: 'PRODUCTION',
    dataType: 'POWER',
    unit: 'W',
    expectedIntervalSeconds: 60,
    state: 'REPORTING',
    lastReadingAt: '2026-06-21T09:58:00Z',
    lastValue: 12_300,
    lastChangedAt: '2026-06-21T09:58:00Z',
    valueAtRest: false,
    coverage24h: 0.987,
    ...overrides,
  };
}

/** A thermometer 5 minutes late at 10:00 UTC, with a value that needs rounding. */
function lateTemperature(): SensorStatus {
  return status({
    state: 'LATE',
    unit: '°C',
    lastValue: 21.46,
    lastReadingAt: '2026-06-21T09:55:00Z',
  });
}

describe('labels', () => {
  test('every state has its words', () => {
    const states = ['REPORTING', 'LATE', 'SILENT', 'NEVER'] as const;
    expect(states.map((state) => freshnessLabel(state, t))).toEqual([
      'Reporting',
      'Late',
      'Silent',
      'Never reported',
    ]);
  });
});

describe('ageText', () => {
  const now = at('2026-06-21T10:00:00Z');
  test('seconds, minutes, hours, days', () => {
    expect(ageText(now - 2_000, now, t)).toBe('just now');
    expect(ageText(now - 40_000, now, t)).toBe('40 s ago');
    expect(ageText(now - 2 * MIN, now, t)).toBe('2 min ago');
    expect(ageText(now - 89 * MIN, now, t)).toBe('89 min ago');
    expect(ageText(now - 5 * 60 * MIN, now, t)).toBe('5 h ago');
    expect(ageText(now - 3 * 24 * 60 * MIN, now, t)).toBe('3 days ago');
  });

  test('a reading from the future (clocks a little apart) is just now', () => {
    expect(ageText(now + 30_000, now, t)).toBe('just now');
  });

  test('counts elapsed time across the spring DST change, not the clocks’ difference', () => {
    // 01:30 CET to 04:30 CEST on 2026-03-29: the clocks moved three hours, two passed.
    const reading = at('2026-03-29T00:30:00Z');
    const now = at('2026-03-29T02:30:00Z');
    expect(exactTimeText(reading, ROME)).toBe('2026-03-29 01:30:00 UTC+01:00 (Europe/Rome)');
    expect(exactTimeText(now, ROME)).toBe('2026-03-29 04:30:00 UTC+02:00 (Europe/Rome)');
    expect(ageText(reading, now, t)).toBe('2 h ago');
  });
});

describe('shortTimeText', () => {
  test('the clock on the same local day, the date before it, in the plant’s zone', () => {
    const now = at('2026-06-21T10:00:00Z'); // 12:00 in Rome
    expect(shortTimeText(at('2026-06-21T07:05:00Z'), ROME, now)).toBe('09:05');
    // 23:30 UTC on the 20th is already the 21st in Rome.
    expect(shortTimeText(at('2026-06-20T23:30:00Z'), ROME, now)).toBe('01:30');
    expect(shortTimeText(at('2026-06-20T21:30:00Z'), ROME, now)).toBe('2026-06-20 23:30');
    expect(shortTimeText(at('2026-06-21T07:05:00Z'), 'Asia/Kathmandu', now)).toBe('12:50');
  });

  test('within the repeated hour of the autumn DST change it names the offset', () => {
    const now = at('2026-10-25T06:00:00Z');
    expect(shortTimeText(at('2026-10-25T00:30:00Z'), ROME, now)).toBe('02:30 UTC+02:00');
    expect(shortTimeText(at('2026-10-25T01:30:00Z'), ROME, now)).toBe('02:30 UTC+01:00');
    expect(shortTimeText(at('2026-10-25T03:30:00Z'), ROME, now)).toBe('04:30');
  });
});

describe('same value since', () => {
  const now = at('2026-06-21T10:00:00Z');

  test('a reporting sensor whose value has not changed for an hour', () => {
    const stuck = status({ lastChangedAt: '2026-06-21T08:30:00Z' });
    expect(sameValueSinceMs(stuck, now)).toBe(at('2026-06-21T08:30:00Z'));
    expect(describeFreshness(stuck, ROME, now, t, f).sameValue).toBe('same value since 10:30');
  });

  test('not for a value that changed recently', () => {
    expect(sameValueSinceMs(status({ lastChangedAt: '2026-06-21T09:10:00Z' }), now)).toBeNull();
  });

  test('not for a rest value (0 W at night stays 0 W for hours)', () => {
    const night = status({
      lastValue: 0,
      valueAtRest: true,
      lastChangedAt: '2026-06-20T19:00:00Z',
    });
    expect(sameValueSinceMs(night, now)).toBeNull();
  });

  test('not for a sensor that does not report: that is its state, another problem', () => {
    const silent = status({
      state: 'SILENT',
      lastReadingAt: '2026-06-21T07:00:00Z',
      lastChangedAt: '2026-06-21T05:00:00Z',
    });
    expect(sameValueSinceMs(silent, now)).toBeNull();
    expect(describeFreshness(silent, ROME, now, t, f).sameValue).toBeNull();
  });

  test('a slow sensor gets ten of its intervals before it counts as repeating itself', () => {
    const slow = status({ expectedIntervalSeconds: 900, lastChangedAt: '2026-06-21T08:00:00Z' });
    expect(sameValueSinceMs(slow, now)).toBeNull(); // 2 h < 10 × 15 min
    expect(
      sameValueSinceMs({ ...slow, lastChangedAt: '2026-06-21T07:30:00Z' }, now),
    ).not.toBeNull();
  });

  test('since a time before a DST change, in the local time of then', () => {
    // Unchanged since 01:45 CET; now 09:00 CEST on the day the clocks went forward.
    const now = at('2026-03-29T07:00:00Z');
    const stuck = status({
      lastReadingAt: '2026-03-29T06:59:00Z',
      lastChangedAt: '2026-03-29T00:45:00Z',
    });
    const view = describeFreshness(stuck, ROME, now, t, f);
    expect(view.sameValue).toBe('same value since 01:45');
    expect(view.sameValueTitle).toBe('2026-03-29 01:45:00 UTC+01:00 (Europe/Rome)');
  });
});

describe('describeFreshness', () => {
  const now = at('2026-06-21T10:00:00Z');

  test('a reporting power meter: value scaled with its unit, age, exact time, coverage', () => {
    const view = describeFreshness(status(), ROME, now, t, f);
    expect(view).toMatchObject({
      label: 'Reporting',
      severity: 'success',
      reading: '12.3 kW · 2 min ago',
      readingTitle: '2026-06-21 11:58:00 UTC+02:00 (Europe/Rome)',
      sameValue: null,
      coverage: '98%',
    });
    expect(view.description).toBe(
      'Reporting, last reading 12.3 kW · 2 min ago, 98% of the last 24 hours covered',
    );
  });

  test('never reported: no value, no time', () => {
    const view = describeFreshness(
      status({
        state: 'NEVER',
        lastReadingAt: null,
        lastValue: null,
        lastChangedAt: null,
        coverage24h: 0,
      }),
      ROME,
      now,
      t,
      f,
    );
    expect(view).toMatchObject({
      label: 'Never reported',
      severity: 'secondary',
      reading: 'No reading yet',
      readingTitle: null,
      coverage: '0%',
    });
  });

  test('late and silent, in other units', () => {
    const late = describeFreshness(lateTemperature(), ROME, now, t, f);
    expect(late).toMatchObject({ label: 'Late', severity: 'warn', reading: '21.5 °C · 5 min ago' });
    const silent = describeFreshness(
      status({
        state: 'SILENT',
        unit: 'kWh',
        lastValue: 1520,
        lastReadingAt: '2026-06-21T07:00:00Z',
      }),
      ROME,
      now,
      t,
      f,
    );
    expect(silent).toMatchObject({
      label: 'Silent',
      severity: 'danger',
      reading: '1.52 MWh · 3 h ago',
    });
  });
});

describe('coverage and the dashboard summary', () => {
  test('coverage is rounded down: 100% means every bit of the day', () => {
    expect(coverageText(0.999, f)).toBe('99%');
    expect(coverageText(1, f)).toBe('100%');
    expect(coverageText(0, f)).toBe('0%');
  });

  test('all reporting, some not, none at all', () => {
    const ok = status();
    const late = status({ sensorUuid: 'b', state: 'LATE' });
    expect(reportingSummary([ok, ok, ok], t)).toBe('All 3 sensors reporting');
    expect(reportingSummary([ok], t)).toBe('The sensor is reporting');
    expect(reportingSummary([ok, late], t)).toBe('1 of 2 sensors reporting');
    expect(reportingSummary([], t)).toBe('No sensors yet');
  });

  test('the sensors needing a look: not reporting, or reporting the same value for long', () => {
    const now = at('2026-06-21T10:00:00Z');
    const ok = status({ sensorUuid: 'ok' });
    const late = status({ sensorUuid: 'late', state: 'LATE' });
    const stuck = status({ sensorUuid: 'stuck', lastChangedAt: '2026-06-21T06:00:00Z' });
    const never = status({ sensorUuid: 'never', state: 'NEVER', lastReadingAt: null });
    expect(sensorsNeedingAttention([ok, late, stuck, never], now).map((s) => s.sensorUuid)).toEqual(
      ['late', 'stuck', 'never'],
    );
  });
});

describe('in German and Italian', () => {
  const now = at('2026-06-21T10:00:00Z');

  test('a reporting power meter in German: words, decimal comma, plural days, coverage', () => {
    const de = createTranslator('de');
    const view = describeFreshness(status(), ROME, now, de, formattersFor('de'));
    expect(view.label).toBe('Meldet');
    expect(view.reading).toBe('12,3 kW · vor 2 min');
    // German sets a no-break space before the percent sign.
    expect(view.coverage).toBe('98\u00a0%');
    expect(view.description).toBe(
      'Meldet, letzter Messwert 12,3 kW · vor 2 min, 98\u00a0% der letzten 24 Stunden abgedeckt',
    );
    expect(ageText(now - 3 * 24 * 60 * MIN, now, de)).toBe('vor 3 Tagen');
    expect(reportingSummary([status(), status({ state: 'LATE' })], de)).toBe(
      '1 von 2 Sensoren melden',
    );
  });

  test('a late temperature sensor in Italian', () => {
    const it = createTranslator('it');
    const view = describeFreshness(lateTemperature(), ROME, now, it, formattersFor('it'));
    expect(view).toMatchObject({ label: 'In ritardo', reading: '21,5 °C · 5 min fa' });
    expect(reportingSummary([status()], it)).toBe('Il sensore trasmette');
  });
});
