import tzLookup from '@photostructure/tz-lookup';
import { DateTime, IANAZone } from 'luxon';
import type { WiringCheckResult, WiringInput } from './types.ts';
import { figure, formatPower, quoted, result } from './wording.ts';

/**
 * The plant's settings the other checks rely on: PV settings where there is PV, and a time
 * zone that is the one of the coordinates (local dates, daily figures and the report's times
 * are all in it).
 */

/** The IANA zone of a place (offline lookup); null for coordinates out of range. */
export function proposeTimeZone(latitude: number, longitude: number): string | null {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  try {
    return tzLookup(latitude, longitude);
  } catch {
    return null;
  }
}

const DAY_MS = 86_400_000;
/** Zones are compared over the year ahead, day by day (DST dates differ by days between regions). */
const COMPARED_DAYS = 366;

/** How two zones differ over the year from `now`: never, or at the first instant they do. */
function firstDifference(
  a: string,
  b: string,
  now: number,
): { atMs: number; offsetA: number; offsetB: number } | null {
  const zoneA = IANAZone.create(a);
  const zoneB = IANAZone.create(b);
  for (let day = 0; day <= COMPARED_DAYS; day++) {
    const atMs = now + day * DAY_MS;
    const offsetA = zoneA.offset(atMs);
    const offsetB = zoneB.offset(atMs);
    if (offsetA !== offsetB) return { atMs, offsetA, offsetB };
  }
  return null;
}

const utcOffset = (minutes: number) => {
  const sign = minutes < 0 ? '−' : '+';
  const size = Math.abs(minutes);
  return `UTC${sign}${Math.floor(size / 60)}${size % 60 === 0 ? '' : `:${String(size % 60).padStart(2, '0')}`}`;
};

export function timeZoneCheck(input: WiringInput): WiringCheckResult {
  const { latitude, longitude, timezone } = input.plant.location;
  const proposed = proposeTimeZone(latitude, longitude);
  const figures = [figure('latitude', latitude, '°', 4), figure('longitude', longitude, '°', 4)];
  if (!IANAZone.isValidZone(timezone)) {
    return result(
      'timeZone',
      'fail',
      null,
      figures,
      `“${timezone}” is not a time zone this computer knows.`,
      proposed ? `Set the time zone to ${proposed}.` : 'Set an IANA time zone such as Europe/Rome.',
    );
  }
  if (proposed === null) {
    return result('timeZone', 'notApplicable', null, figures, 'The coordinates are out of range.');
  }
  const offsetNow = IANAZone.create(timezone).offset(input.now);
  const proposedNow = IANAZone.create(proposed).offset(input.now);
  const withOffsets = [
    ...figures,
    figure(`UTC offset of ${timezone} now`, offsetNow, 'min', 0),
    figure(`UTC offset of ${proposed} now`, proposedNow, 'min', 0),
  ];
  if (proposed === timezone) {
    return result(
      'timeZone',
      'pass',
      null,
      withOffsets,
      `${timezone} is the time zone of the coordinates.`,
    );
  }
  const difference = firstDifference(timezone, proposed, input.now);
  if (difference === null) {
    return result(
      'timeZone',
      'warning',
      null,
      withOffsets,
      `The coordinates are in ${proposed}, not ${timezone}; both keep the same time all year, so dates and times come out the same.`,
      `Set the time zone to ${proposed} unless the coordinates are off (a plant near a border).`,
    );
  }
  const when = DateTime.fromMillis(difference.atMs, { zone: proposed }).toFormat('yyyy-MM-dd');
  return result(
    'timeZone',
    'fail',
    null,
    withOffsets,
    difference.atMs === input.now
      ? `The coordinates are in ${proposed} (${utcOffset(proposedNow)} now), not ${timezone} (${utcOffset(offsetNow)}): local dates and daily figures would be shifted.`
      : `The coordinates are in ${proposed}, not ${timezone}: from ${when} they differ (${utcOffset(difference.offsetB)} against ${utcOffset(difference.offsetA)}).`,
    `Set the time zone to ${proposed}, or correct the coordinates.`,
  );
}

/** PV settings present where there is PV; the peak power of the size of the inverters. */
export function pvSettingsCheck(input: WiringInput): WiringCheckResult {
  const producers = input.devices.filter((device) => device.category === 'PRODUCER');
  const productionSensors = input.sensors.filter((sensor) => sensor.flow === 'PRODUCTION');
  const pv = input.plant.pv;
  if (!pv) {
    if (producers.length === 0 && productionSensors.length === 0) {
      return result(
        'pvSettings',
        'notApplicable',
        null,
        [],
        'The plant has no PV: no producer device and no production sensor.',
      );
    }
    const what =
      producers.length > 0
        ? `producer ${producers.map((device) => quoted(device.name)).join(', ')}`
        : `production sensor ${quoted(productionSensors[0]!.name)}`;
    return result(
      'pvSettings',
      'fail',
      null,
      [],
      `The plant has a ${what} but no PV settings: forecasts, PV health and the production check need them.`,
      "Enter the array's peak power, tilt and orientation in the plant's PV settings.",
    );
  }
  const ratedW = producers.reduce((sum, device) => sum + (device.ratedPowerW ?? 0), 0);
  const figures = [
    figure('peak power', pv.peakPowerKw, 'kWp', 2),
    figure('tilt', pv.tiltDeg, '°', 0),
    figure('orientation (180 = south)', pv.azimuthDeg, '°', 0),
    ...(ratedW > 0 ? [figure("producers' rated power", ratedW, 'W', 0)] : []),
  ];
  const settings = `${pv.peakPowerKw} kWp, tilt ${pv.tiltDeg}°, facing ${pv.azimuthDeg}°`;
  if (ratedW > 0) {
    // Arrays are sized at 0.8–1.5 times their inverters' AC power; a factor of 1000 is a unit.
    const ratio = (pv.peakPowerKw * 1000) / ratedW;
    if (ratio >= 300 || ratio <= 1 / 300) {
      return result(
        'pvSettings',
        'fail',
        null,
        figures,
        `The peak power ${pv.peakPowerKw} kWp is about ${ratio >= 1 ? 'a thousand times' : 'a thousandth of'} the producers' rated ${formatPower(ratedW)}: one of them is in the wrong unit.`,
        'Enter the peak power in kWp and the rated power in W.',
      );
    }
    if (ratio > 2 || ratio < 0.5) {
      return result(
        'pvSettings',
        'warning',
        null,
        figures,
        `The peak power ${pv.peakPowerKw} kWp is ${ratio.toFixed(1)}× the producers' rated ${formatPower(ratedW)}; arrays are usually 0.8–1.5× their inverters.`,
        "Check the peak power against the modules' datasheet, and the inverters' rated power.",
      );
    }
  }
  return result('pvSettings', 'pass', null, figures, `PV settings: ${settings}.`);
}
