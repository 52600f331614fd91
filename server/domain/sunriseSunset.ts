import { clampUnit, cosDeg, normalizeDeg180, RAD_TO_DEG, sinDeg } from './angles.ts';
import {
  apparentSiderealTimeDeg,
  ATMOSPHERIC_REFRACTION_AT_HORIZON_DEG,
  DEFAULT_DELTA_T_SECONDS,
  geocentricSun,
  julianDay,
  SUN_RADIUS_DEG,
  type Observer,
} from './solarPosition.ts';

/**
 * Sunrise, solar transit and sunset of one local calendar day: SPA report (Reda & Andreas,
 * NREL/TP-560-34302, 2008) appendix A.2. Accuracy is about a minute or better; the
 * report's example (Golden, CO, 2003-10-17, UTC−7) gives sunrise 06:12:43 and sunset 17:20:19.
 *
 * One deliberate improvement on the report: the day-to-day differences of the right ascension are
 * unwrapped across 0°/360° (the report instead takes their fractional part, which is wrong on the
 * days the sun crosses the vernal equinox).
 */

/** Sun's centre altitude at rise and set: −(disc radius + horizon refraction) = −0.8333°. */
const RISE_SET_ALTITUDE_DEG = -(SUN_RADIUS_DEG + ATMOSPHERIC_REFRACTION_AT_HORIZON_DEG);
/** Sidereal degrees per solar day (SPA report A.2). */
const SIDEREAL_DEG_PER_DAY = 360.985647;
const MS_PER_DAY = 86_400_000;
const MS_PER_MINUTE = 60_000;
const SECONDS_PER_DAY = 86_400;

export interface LocalDate {
  year: number;
  /** 1..12 */
  month: number;
  /** 1..31 */
  day: number;
}

/** Whether the sun rises and sets that day. */
export type DaylightKind = 'NORMAL' | 'POLAR_DAY' | 'POLAR_NIGHT';

export interface SunEvents {
  kind: DaylightKind;
  /** Solar transit (solar noon), epoch ms. */
  transitMs: number;
  /** Sunrise, epoch ms; null on polar days and nights. */
  sunriseMs: number | null;
  /** Sunset, epoch ms; null on polar days and nights. */
  sunsetMs: number | null;
}

function fraction(value: number): number {
  return value - Math.floor(value);
}

/** Quadratic interpolation through the values of days −1, 0, +1 at day fraction n. */
function interpolateDaily(
  previous: number,
  current: number,
  next: number,
  n: number,
  unwrap: boolean,
): number {
  let a = current - previous;
  let b = next - current;
  if (unwrap) {
    a = normalizeDeg180(a);
    b = normalizeDeg180(b);
  }
  return current + (n * (a + b + (b - a) * n)) / 2;
}

/**
 * Sun events of the local calendar day `date`, whose clock is `utcOffsetMinutes` ahead of UTC
 * (take it from the zone at local noon; the events are returned as instants, so a DST change that
 * day only shifts how they are displayed). Times lie within that local day.
 */
export function sunEvents(
  date: LocalDate,
  utcOffsetMinutes: number,
  observer: Observer,
): SunEvents {
  const deltaTSeconds = observer.deltaTSeconds ?? DEFAULT_DELTA_T_SECONDS;
  const latitudeDeg = observer.latitudeDeg;
  const longitudeDeg = observer.longitudeDeg;
  const midnightUtcMs = Date.UTC(date.year, date.month - 1, date.day);
  const jd = julianDay(midnightUtcMs);

  const today = geocentricSun(jd + deltaTSeconds / SECONDS_PER_DAY);
  const siderealDeg = apparentSiderealTimeDeg(
    jd,
    today.nutationLongitudeDeg,
    today.trueObliquityDeg,
  );
  // The report evaluates right ascension and declination at 0 TT of days −1, 0 and +1.
  const days = [jd - 1, jd, jd + 1].map((day) => geocentricSun(day));
  const alpha = days.map((day) => day.rightAscensionDeg) as [number, number, number];
  const delta = days.map((day) => day.declinationDeg) as [number, number, number];

  const localMs = (dayFraction: number): number =>
    midnightUtcMs -
    utcOffsetMinutes * MS_PER_MINUTE +
    fraction(dayFraction + utcOffsetMinutes / 1440) * MS_PER_DAY;

  const sinLat = sinDeg(latitudeDeg);
  const cosLat = cosDeg(latitudeDeg);
  const m0 = fraction((alpha[1] - longitudeDeg - siderealDeg) / 360);
  const cosH0 =
    (sinDeg(RISE_SET_ALTITUDE_DEG) - sinLat * sinDeg(delta[1])) / (cosLat * cosDeg(delta[1]));

  /** Local hour angle H′ (degrees) and altitude h (degrees) at day fraction m. */
  const sunAt = (
    m: number,
  ): { hourAngleDeg: number; altitudeDeg: number; declinationDeg: number } => {
    const n = m + deltaTSeconds / SECONDS_PER_DAY;
    const rightAscensionDeg = interpolateDaily(alpha[0], alpha[1], alpha[2], n, true);
    const declinationDeg = interpolateDaily(delta[0], delta[1], delta[2], n, false);
    const hourAngleDeg = normalizeDeg180(
      siderealDeg + SIDEREAL_DEG_PER_DAY * m + longitudeDeg - rightAscensionDeg,
    );
    const altitudeDeg =
      Math.asin(
        clampUnit(
          sinLat * sinDeg(declinationDeg) + cosLat * cosDeg(declinationDeg) * cosDeg(hourAngleDeg),
        ),
      ) * RAD_TO_DEG;
    return { hourAngleDeg, altitudeDeg, declinationDeg };
  };

  const transitMs = localMs(m0 - sunAt(m0).hourAngleDeg / 360);
  if (cosH0 < -1 || cosH0 > 1) {
    return {
      kind: cosH0 < -1 ? 'POLAR_DAY' : 'POLAR_NIGHT',
      transitMs,
      sunriseMs: null,
      sunsetMs: null,
    };
  }

  const h0Deg = Math.acos(cosH0) * RAD_TO_DEG;
  /** Refines an approximate rise or set day fraction with one Newton step. */
  const refine = (m: number): number => {
    const sun = sunAt(m);
    return (
      m +
      (sun.altitudeDeg - RISE_SET_ALTITUDE_DEG) /
        (360 * cosDeg(sun.declinationDeg) * cosLat * sinDeg(sun.hourAngleDeg))
    );
  };
  return {
    kind: 'NORMAL',
    transitMs,
    sunriseMs: localMs(refine(fraction(m0 - h0Deg / 360))),
    sunsetMs: localMs(refine(fraction(m0 + h0Deg / 360))),
  };
}
