import tzLookup from '@photostructure/tz-lookup';
import { IANAZone } from 'luxon';
import type { WiringCheckResult, WiringInput } from './types.ts';
import { figure, number, power, quoted, quotedList, result, say } from './wording.ts';

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

/** `UTC+02:00`, `UTC-04:00`: an offset as the rest of the app writes it (charts/time.ts). */
const utcOffset = (minutes: number) => {
  const size = Math.abs(minutes);
  const two = (value: number) => String(value).padStart(2, '0');
  return `UTC${minutes < 0 ? '-' : '+'}${two(Math.floor(size / 60))}:${two(size % 60)}`;
};

export function timeZoneCheck(input: WiringInput): WiringCheckResult {
  const { latitude, longitude, timezone } = input.plant.location;
  const proposed = proposeTimeZone(latitude, longitude);
  const figures = [
    figure(say('wiring.figures.latitude'), latitude, '°', 4),
    figure(say('wiring.figures.longitude'), longitude, '°', 4),
  ];
  if (!IANAZone.isValidZone(timezone)) {
    return result(
      'timeZone',
      'fail',
      null,
      figures,
      say('wiring.timeZone.unknown', { zone: quoted(timezone) }),
      proposed
        ? say('wiring.timeZone.setTo', { proposed })
        : say('wiring.timeZone.setIana', { example: 'Europe/Rome' }),
    );
  }
  if (proposed === null) {
    return result('timeZone', 'notApplicable', null, figures, say('wiring.timeZone.outOfRange'));
  }
  const offsetNow = IANAZone.create(timezone).offset(input.now);
  const proposedNow = IANAZone.create(proposed).offset(input.now);
  const withOffsets = [
    ...figures,
    figure(say('wiring.figures.offsetOf', { zone: timezone }), offsetNow, 'min', 0),
    figure(say('wiring.figures.offsetOf', { zone: proposed }), proposedNow, 'min', 0),
  ];
  const zones = { zone: timezone, proposed };
  if (proposed === timezone) {
    return result('timeZone', 'pass', null, withOffsets, say('wiring.timeZone.pass', zones));
  }
  const difference = firstDifference(timezone, proposed, input.now);
  if (difference === null) {
    return result(
      'timeZone',
      'warning',
      null,
      withOffsets,
      say('wiring.timeZone.sameTime', zones),
      say('wiring.timeZone.sameTimeAction', zones),
    );
  }
  return result(
    'timeZone',
    'fail',
    null,
    withOffsets,
    difference.atMs === input.now
      ? say('wiring.timeZone.shiftedNow', {
          ...zones,
          proposedOffset: utcOffset(proposedNow),
          offset: utcOffset(offsetNow),
        })
      : say('wiring.timeZone.differFrom', {
          ...zones,
          date: { date: difference.atMs, zone: proposed },
          proposedOffset: utcOffset(difference.offsetB),
          offset: utcOffset(difference.offsetA),
        }),
    say('wiring.timeZone.fixAction', zones),
  );
}

/** PV settings present where there is PV; the peak power of the size of the inverters. */
export function pvSettingsCheck(input: WiringInput): WiringCheckResult {
  const producers = input.devices.filter((device) => device.category === 'PRODUCER');
  const productionSensors = input.sensors.filter((sensor) => sensor.flow === 'PRODUCTION');
  const pv = input.plant.pv;
  if (!pv) {
    if (producers.length === 0 && productionSensors.length === 0) {
      return result('pvSettings', 'notApplicable', null, [], say('wiring.pvSettings.noPv'));
    }
    return result(
      'pvSettings',
      'fail',
      null,
      [],
      producers.length > 0
        ? say(
            'wiring.pvSettings.missingForProducers',
            { devices: quotedList(producers.map((device) => device.name)) },
            producers.length,
          )
        : say('wiring.pvSettings.missingForSensor', {
            sensor: quoted(productionSensors[0]!.name),
          }),
      say('wiring.pvSettings.enter'),
    );
  }
  const ratedW = producers.reduce((sum, device) => sum + (device.ratedPowerW ?? 0), 0);
  const figures = [
    figure(say('wiring.figures.peakPower'), pv.peakPowerKw, 'kWp', 2),
    figure(say('wiring.figures.tilt'), pv.tiltDeg, '°', 0),
    figure(say('wiring.figures.orientation'), pv.azimuthDeg, '°', 0),
    ...(ratedW > 0 ? [figure(say('wiring.figures.producersRated'), ratedW, 'W', 0)] : []),
  ];
  const sizes = { peak: number(pv.peakPowerKw, 2), rated: power(ratedW) };
  if (ratedW > 0) {
    // Arrays are sized at 0.8–1.5 times their inverters' AC power; a factor of 1000 is a unit.
    const ratio = (pv.peakPowerKw * 1000) / ratedW;
    if (ratio >= 300 || ratio <= 1 / 300) {
      return result(
        'pvSettings',
        'fail',
        null,
        figures,
        say(ratio >= 1 ? 'wiring.pvSettings.kilo' : 'wiring.pvSettings.milli', sizes),
        say('wiring.pvSettings.units'),
      );
    }
    if (ratio > 2 || ratio < 0.5) {
      return result(
        'pvSettings',
        'warning',
        null,
        figures,
        say('wiring.pvSettings.ratio', {
          ...sizes,
          ratio: number(ratio, 1, 1),
          low: number(0.8, 1),
          high: number(1.5, 1),
        }),
        say('wiring.pvSettings.ratioAction'),
      );
    }
  }
  return result(
    'pvSettings',
    'pass',
    null,
    figures,
    say('wiring.pvSettings.pass', {
      peak: number(pv.peakPowerKw, 2),
      tilt: number(pv.tiltDeg, 1),
      azimuth: number(pv.azimuthDeg, 1),
    }),
  );
}
