import { describe, expect, test } from 'vitest';
import { currentOffset, timeZoneOption } from '../../../renderer/src/composables/useTimeZones.ts';

/** The zone picker words offsets as the rest of the app does: UTC±hh:mm, never GMT. */

const WINTER = new Date(Date.UTC(2026, 0, 15, 12));

describe('time-zone choices', () => {
  test('an offset reads UTC+01:00, UTC itself UTC+00:00, a negative one UTC−', () => {
    expect(currentOffset('Europe/Rome', WINTER)).toBe('UTC+01:00');
    expect(currentOffset('UTC', WINTER)).toBe('UTC+00:00');
    expect(currentOffset('America/New_York', WINTER)).toBe('UTC-05:00');
    expect(currentOffset('Asia/Kathmandu', WINTER)).toBe('UTC+05:45');
  });

  test('the option names the zone and its offset; an unknown zone goes without one', () => {
    currentOffset('Europe/Berlin', WINTER);
    expect(timeZoneOption('Europe/Berlin')).toEqual({
      value: 'Europe/Berlin',
      label: 'Europe/Berlin (UTC+01:00)',
    });
    expect(timeZoneOption('Mars/Olympus_Mons').label).toBe('Mars/Olympus_Mons');
  });
});
