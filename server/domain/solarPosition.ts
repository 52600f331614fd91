import {
  clampUnit,
  cosDeg,
  DEG_TO_RAD,
  normalizeDeg180,
  normalizeDeg360,
  RAD_TO_DEG,
  sinDeg,
  tanDeg,
} from './angles.ts';
import {
  EARTH_LATITUDE_TERMS,
  EARTH_LONGITUDE_TERMS,
  EARTH_RADIUS_TERMS,
  NUTATION_TERMS,
  type PeriodicTerm,
} from './spaTables.ts';

/**
 * The NREL Solar Position Algorithm (SPA), full version.
 *
 * I. Reda and A. Andreas, "Solar Position Algorithm for Solar Radiation Applications",
 * NREL/TP-560-34302 (2003, revised January 2008); Solar Energy 76 (2004) 577–589.
 * Equation numbers below refer to that report. Stated uncertainty: ±0.0003° for years −2000..6000.
 *
 * Conventions: azimuth in degrees clockwise from north (eastward: 90 = east, 180 = south);
 * latitude positive north, longitude positive east; all angles in degrees unless named otherwise.
 */

/** TT − UT1 in seconds for the 2020s (IERS Bulletin A: 69.2 s in 2024, drifting slowly). */
export const DEFAULT_DELTA_T_SECONDS = 69;
/** Annual mean local pressure in millibars when unknown: standard sea-level atmosphere (ISO 2533). */
export const DEFAULT_PRESSURE_MBAR = 1013.25;
/** Annual mean local temperature in °C when unknown (the default of pvlib's SPA wrapper). */
export const DEFAULT_TEMPERATURE_C = 12;
/** Atmospheric refraction at sunrise and sunset, degrees (SPA report, eq. 42 note and A.2). */
export const ATMOSPHERIC_REFRACTION_AT_HORIZON_DEG = 0.5667;
/** Apparent radius of the solar disc, degrees (SPA report, A.2). */
export const SUN_RADIUS_DEG = 0.26667;

/** Julian day of the Unix epoch, 1970-01-01T00:00Z. */
const JULIAN_DAY_UNIX_EPOCH = 2440587.5;
/** Julian day of the J2000.0 epoch, 2000-01-01T12:00 TT. */
const JULIAN_DAY_J2000 = 2451545;
const DAYS_PER_JULIAN_CENTURY = 36525;
const MS_PER_DAY = 86_400_000;
const SECONDS_PER_DAY = 86_400;
/** Periodic-term sums are in units of 1e−8 rad (L, B) or 1e−8 AU (R), eqs. 10–12. */
const PERIODIC_TERM_SCALE = 1e8;
/** Nutation sums are in 0.0001 arcseconds; 36,000,000 of them make a degree (eqs. 22–23). */
const NUTATION_UNITS_PER_DEGREE = 36_000_000;
/** Aberration constant, arcseconds (eq. 26). */
const ABERRATION_ARCSEC = 20.4898;
/** Sun's equatorial horizontal parallax at 1 AU, arcseconds (eq. 33). */
const SUN_HORIZONTAL_PARALLAX_ARCSEC = 8.794;
/** Polar-to-equatorial radius ratio of the Earth, b/a (eqs. 34, 36). */
const EARTH_FLATTENING_RATIO = 0.99664719;
/** Equatorial radius of the Earth, metres (eqs. 35, 36). */
const EARTH_EQUATORIAL_RADIUS_M = 6_378_140;

/** Where and under which atmosphere the sun is observed. */
export interface Observer {
  /** Geographic latitude, degrees, positive north. */
  latitudeDeg: number;
  /** Geographic longitude, degrees, positive east of Greenwich. */
  longitudeDeg: number;
  /** Elevation above sea level, metres (default 0). */
  elevationM?: number;
  /** Annual mean local pressure, millibars = hPa (default 1013.25). Only affects refraction. */
  pressureMbar?: number;
  /** Annual mean local temperature, °C (default 12). Only affects refraction. */
  temperatureC?: number;
  /** TT − UT1, seconds (default 69). */
  deltaTSeconds?: number;
}

/** Topocentric sun position as seen by an observer. */
export interface SolarPosition {
  /** Topocentric zenith angle, degrees, corrected for atmospheric refraction (eq. 44). */
  zenithDeg: number;
  /** Topocentric elevation angle = 90 − zenith, degrees, refraction-corrected (eq. 43). */
  elevationDeg: number;
  /** Topocentric azimuth, degrees clockwise from north in [0, 360) (eq. 46). */
  azimuthDeg: number;
  /** Topocentric declination of the sun, degrees (eq. 39). */
  declinationDeg: number;
  /** Topocentric local hour angle, degrees in [−180, 180), positive west of the meridian (eq. 40). */
  hourAngleDeg: number;
  /** Equation of time (apparent − mean solar time), minutes (eqs. A1–A4). */
  equationOfTimeMinutes: number;
  /** Earth–Sun distance, astronomical units (eq. 12). */
  earthSunDistanceAu: number;
}

/**
 * Observer-independent quantities of one instant (SPA steps 3.1–3.8): the sun's geocentric
 * place, nutation and obliquity. Exposed for tests against the report's intermediate values.
 */
export interface GeocentricSun {
  /** Earth heliocentric longitude L, degrees in [0, 360) (eq. 10). */
  heliocentricLongitudeDeg: number;
  /** Earth heliocentric latitude B, degrees (eq. 11). */
  heliocentricLatitudeDeg: number;
  /** Earth radius vector R, AU (eq. 12). */
  earthSunDistanceAu: number;
  /** Nutation in longitude Δψ, degrees (eq. 22). */
  nutationLongitudeDeg: number;
  /** Nutation in obliquity Δε, degrees (eq. 23). */
  nutationObliquityDeg: number;
  /** True obliquity of the ecliptic ε, degrees (eq. 25). */
  trueObliquityDeg: number;
  /** Apparent sun longitude λ, degrees (eq. 27). */
  apparentLongitudeDeg: number;
  /** Geocentric sun right ascension α, degrees in [0, 360) (eq. 30). */
  rightAscensionDeg: number;
  /** Geocentric sun declination δ, degrees (eq. 31). */
  declinationDeg: number;
  /** Equation of time, minutes in [−20, 20] (eqs. A1–A4). */
  equationOfTimeMinutes: number;
}

/** Julian day (UT) of an instant; Unix time ignores leap seconds exactly as UT1 ≈ UTC assumes. */
export function julianDay(epochMs: number): number {
  return epochMs / MS_PER_DAY + JULIAN_DAY_UNIX_EPOCH;
}

/** Flat [A, B, C, A, B, C, ...] copies of the tables: tight loops over typed arrays are fastest. */
function flatten(series: readonly (readonly PeriodicTerm[])[]): Float64Array[] {
  return series.map((terms) => Float64Array.from(terms.flat()));
}
const LONGITUDE_SERIES = flatten(EARTH_LONGITUDE_TERMS);
const LATITUDE_SERIES = flatten(EARTH_LATITUDE_TERMS);
const RADIUS_SERIES = flatten(EARTH_RADIUS_TERMS);
const NUTATION_FLAT = Float64Array.from(NUTATION_TERMS.flat());
const NUTATION_STRIDE = 9;

/** Σ over series i of JME^i · Σ A·cos(B + C·JME), scaled (eqs. 9–12). */
function evaluateSeries(series: readonly Float64Array[], jme: number): number {
  let total = 0;
  let power = 1;
  for (const terms of series) {
    let sum = 0;
    for (let k = 0; k < terms.length; k += 3) {
      sum += terms[k]! * Math.cos(terms[k + 1]! + terms[k + 2]! * jme);
    }
    total += sum * power;
    power *= jme;
  }
  return total / PERIODIC_TERM_SCALE;
}

/** Nutation in longitude and obliquity, degrees (eqs. 15–23). */
function nutation(jce: number): { longitudeDeg: number; obliquityDeg: number } {
  const jce2 = jce * jce;
  const jce3 = jce2 * jce;
  // Mean elongation of the moon, mean anomalies of sun and moon, moon's argument of latitude,
  // longitude of the moon's ascending node (eqs. 15–19).
  const x0 = 297.85036 + 445267.11148 * jce - 0.0019142 * jce2 + jce3 / 189474;
  const x1 = 357.52772 + 35999.05034 * jce - 0.0001603 * jce2 - jce3 / 300000;
  const x2 = 134.96298 + 477198.867398 * jce + 0.0086972 * jce2 + jce3 / 56250;
  const x3 = 93.27191 + 483202.017538 * jce - 0.0036825 * jce2 + jce3 / 327270;
  const x4 = 125.04452 - 1934.136261 * jce + 0.0020708 * jce2 + jce3 / 450000;
  let psi = 0;
  let epsilon = 0;
  for (let k = 0; k < NUTATION_FLAT.length; k += NUTATION_STRIDE) {
    const argumentRad =
      (NUTATION_FLAT[k]! * x0 +
        NUTATION_FLAT[k + 1]! * x1 +
        NUTATION_FLAT[k + 2]! * x2 +
        NUTATION_FLAT[k + 3]! * x3 +
        NUTATION_FLAT[k + 4]! * x4) *
      DEG_TO_RAD;
    psi += (NUTATION_FLAT[k + 5]! + NUTATION_FLAT[k + 6]! * jce) * Math.sin(argumentRad);
    epsilon += (NUTATION_FLAT[k + 7]! + NUTATION_FLAT[k + 8]! * jce) * Math.cos(argumentRad);
  }
  return {
    longitudeDeg: psi / NUTATION_UNITS_PER_DEGREE,
    obliquityDeg: epsilon / NUTATION_UNITS_PER_DEGREE,
  };
}

/** Σ coefficients[i] · x^i by Horner's rule. */
function polynomial(coefficients: readonly number[], x: number): number {
  let value = 0;
  for (let i = coefficients.length - 1; i >= 0; i -= 1) value = value * x + coefficients[i]!;
  return value;
}

/** Mean obliquity ε0 (arcseconds) in powers of U = JME/10 (eq. 24, Laskar 1986). */
const MEAN_OBLIQUITY_ARCSEC = [
  84381.448, -4680.93, -1.55, 1999.25, -51.38, -249.67, -39.05, 7.12, 27.87, 5.79, 2.45,
];
/** Sun's mean longitude M (degrees) in powers of JME (eq. A2). */
const SUN_MEAN_LONGITUDE_DEG = [
  280.4664567,
  360007.6982779,
  0.03032028,
  1 / 49931,
  -1 / 15300,
  -1 / 2000000,
];

function meanObliquityArcsec(jme: number): number {
  return polynomial(MEAN_OBLIQUITY_ARCSEC, jme / 10);
}

function sunMeanLongitudeDeg(jme: number): number {
  return polynomial(SUN_MEAN_LONGITUDE_DEG, jme);
}

/** Equation of time in minutes, mapped into [−20, 20] (eqs. A1, A3, A4). */
function equationOfTimeMinutes(
  jme: number,
  rightAscensionDeg: number,
  nutationLongitudeDeg: number,
  trueObliquityDeg: number,
): number {
  const degrees = normalizeDeg360(
    sunMeanLongitudeDeg(jme) -
      0.0057183 -
      rightAscensionDeg +
      nutationLongitudeDeg * cosDeg(trueObliquityDeg),
  );
  const minutes = degrees * 4;
  return minutes > 20 ? minutes - 1440 : minutes;
}

/**
 * The sun's geocentric place at Julian ephemeris day `jde` (TT), SPA steps 3.1–3.8.
 * This is the expensive, observer-independent part (about 200 periodic terms).
 */
export function geocentricSun(jde: number): GeocentricSun {
  const jce = (jde - JULIAN_DAY_J2000) / DAYS_PER_JULIAN_CENTURY;
  const jme = jce / 10;
  const heliocentricLongitudeDeg = normalizeDeg360(
    evaluateSeries(LONGITUDE_SERIES, jme) * RAD_TO_DEG,
  );
  const heliocentricLatitudeDeg = evaluateSeries(LATITUDE_SERIES, jme) * RAD_TO_DEG;
  const earthSunDistanceAu = evaluateSeries(RADIUS_SERIES, jme);
  const geocentricLongitudeDeg = normalizeDeg360(heliocentricLongitudeDeg + 180); // eq. 13
  const geocentricLatitudeDeg = -heliocentricLatitudeDeg; // eq. 14
  const { longitudeDeg: nutationLongitudeDeg, obliquityDeg: nutationObliquityDeg } = nutation(jce);
  const trueObliquityDeg = meanObliquityArcsec(jme) / 3600 + nutationObliquityDeg; // eq. 25
  const aberrationDeg = -ABERRATION_ARCSEC / (3600 * earthSunDistanceAu); // eq. 26
  // Apparent sun longitude λ (eq. 27).
  const apparentLongitudeDeg = geocentricLongitudeDeg + nutationLongitudeDeg + aberrationDeg;

  const sinLambda = sinDeg(apparentLongitudeDeg);
  const sinEpsilon = sinDeg(trueObliquityDeg);
  const cosEpsilon = cosDeg(trueObliquityDeg);
  const rightAscensionDeg = normalizeDeg360(
    Math.atan2(
      sinLambda * cosEpsilon - tanDeg(geocentricLatitudeDeg) * sinEpsilon,
      cosDeg(apparentLongitudeDeg),
    ) * RAD_TO_DEG,
  ); // eq. 30
  const declinationDeg =
    Math.asin(
      clampUnit(
        sinDeg(geocentricLatitudeDeg) * cosEpsilon +
          cosDeg(geocentricLatitudeDeg) * sinEpsilon * sinLambda,
      ),
    ) * RAD_TO_DEG; // eq. 31

  return {
    heliocentricLongitudeDeg,
    heliocentricLatitudeDeg,
    earthSunDistanceAu,
    nutationLongitudeDeg,
    nutationObliquityDeg,
    trueObliquityDeg,
    apparentLongitudeDeg,
    rightAscensionDeg,
    declinationDeg,
    equationOfTimeMinutes: equationOfTimeMinutes(
      jme,
      rightAscensionDeg,
      nutationLongitudeDeg,
      trueObliquityDeg,
    ),
  };
}

/** Apparent sidereal time at Greenwich ν, degrees in [0, 360) (eqs. 28–29). */
export function apparentSiderealTimeDeg(
  jd: number,
  nutationLongitudeDeg: number,
  trueObliquityDeg: number,
): number {
  const jc = (jd - JULIAN_DAY_J2000) / DAYS_PER_JULIAN_CENTURY;
  const mean =
    280.46061837 +
    360.98564736629 * (jd - JULIAN_DAY_J2000) +
    jc * jc * (0.000387933 - jc / 38710000);
  return normalizeDeg360(mean + nutationLongitudeDeg * cosDeg(trueObliquityDeg));
}

/** Observer constants of the topocentric correction, computed once per observer (eqs. 34–36, 42). */
export interface ObserverGeometry {
  latitudeDeg: number;
  longitudeDeg: number;
  sinLatitude: number;
  cosLatitude: number;
  /** x and y terms of the parallax correction (eqs. 35–36). */
  parallaxX: number;
  parallaxY: number;
  /** (P/1010)·(283/(273+T))·1.02/60: the pressure/temperature factor of eq. 42, degrees. */
  refractionScaleDeg: number;
  deltaTSeconds: number;
}

export function observerGeometry(observer: Observer): ObserverGeometry {
  const latitudeDeg = observer.latitudeDeg;
  const elevationRatio = (observer.elevationM ?? 0) / EARTH_EQUATORIAL_RADIUS_M;
  const u = Math.atan(EARTH_FLATTENING_RATIO * tanDeg(latitudeDeg)); // eq. 34
  const pressureMbar = observer.pressureMbar ?? DEFAULT_PRESSURE_MBAR;
  const temperatureC = observer.temperatureC ?? DEFAULT_TEMPERATURE_C;
  return {
    latitudeDeg,
    longitudeDeg: observer.longitudeDeg,
    sinLatitude: sinDeg(latitudeDeg),
    cosLatitude: cosDeg(latitudeDeg),
    parallaxX: Math.cos(u) + elevationRatio * cosDeg(latitudeDeg),
    parallaxY: EARTH_FLATTENING_RATIO * Math.sin(u) + elevationRatio * sinDeg(latitudeDeg),
    refractionScaleDeg: ((pressureMbar / 1010) * (283 / (273 + temperatureC)) * 1.02) / 60,
    deltaTSeconds: observer.deltaTSeconds ?? DEFAULT_DELTA_T_SECONDS,
  };
}

/** The inputs of the topocentric step: geocentric place plus sidereal time. */
export interface TopocentricInput {
  rightAscensionDeg: number;
  declinationDeg: number;
  earthSunDistanceAu: number;
  apparentSiderealTimeDeg: number;
  equationOfTimeMinutes: number;
}

/** Parallax, refraction and horizon coordinates for one observer (SPA steps 3.9–3.14). */
export function topocentricPosition(
  sun: TopocentricInput,
  geometry: ObserverGeometry,
): SolarPosition {
  // Observer local hour angle H (eq. 32).
  const hourAngleDeg = sun.apparentSiderealTimeDeg + geometry.longitudeDeg - sun.rightAscensionDeg;
  const sinXi = sinDeg(SUN_HORIZONTAL_PARALLAX_ARCSEC / (3600 * sun.earthSunDistanceAu)); // eq. 33
  const hourAngleRad = hourAngleDeg * DEG_TO_RAD;
  const cosH = Math.cos(hourAngleRad);
  const declinationRad = sun.declinationDeg * DEG_TO_RAD;
  const cosDelta = Math.cos(declinationRad);
  const denominator = cosDelta - geometry.parallaxX * sinXi * cosH;
  const parallaxRightAscensionRad = Math.atan2(
    -geometry.parallaxX * sinXi * Math.sin(hourAngleRad),
    denominator,
  ); // eq. 37
  const topoDeclinationRad = Math.atan2(
    (Math.sin(declinationRad) - geometry.parallaxY * sinXi) * Math.cos(parallaxRightAscensionRad),
    denominator,
  ); // eq. 39
  const topoHourAngleRad = hourAngleRad - parallaxRightAscensionRad; // eq. 40
  const cosTopoH = Math.cos(topoHourAngleRad);
  const sinTopoDelta = Math.sin(topoDeclinationRad);
  const cosTopoDelta = Math.cos(topoDeclinationRad);

  const trueElevationDeg =
    Math.asin(
      clampUnit(
        geometry.sinLatitude * sinTopoDelta + geometry.cosLatitude * cosTopoDelta * cosTopoH,
      ),
    ) * RAD_TO_DEG; // eq. 41
  // Refraction applies only while some of the disc is above the refracted horizon (eq. 42 note).
  const refractionDeg =
    trueElevationDeg >= -(SUN_RADIUS_DEG + ATMOSPHERIC_REFRACTION_AT_HORIZON_DEG)
      ? geometry.refractionScaleDeg / tanDeg(trueElevationDeg + 10.3 / (trueElevationDeg + 5.11))
      : 0;
  const elevationDeg = trueElevationDeg + refractionDeg; // eq. 43

  const astronomersAzimuthRad = Math.atan2(
    Math.sin(topoHourAngleRad),
    cosTopoH * geometry.sinLatitude - (sinTopoDelta / cosTopoDelta) * geometry.cosLatitude,
  ); // eq. 45
  return {
    zenithDeg: 90 - elevationDeg, // eq. 44
    elevationDeg,
    azimuthDeg: normalizeDeg360(astronomersAzimuthRad * RAD_TO_DEG + 180), // eq. 46
    declinationDeg: topoDeclinationRad * RAD_TO_DEG,
    hourAngleDeg: normalizeDeg180(topoHourAngleRad * RAD_TO_DEG),
    equationOfTimeMinutes: sun.equationOfTimeMinutes,
    earthSunDistanceAu: sun.earthSunDistanceAu,
  };
}

export function epochMsOf(time: Date | number): number {
  return typeof time === 'number' ? time : time.getTime();
}

/**
 * Full SPA at one instant: about 3.5 µs a call. For long series use
 * `createSolarPositionCalculator` (same answers within 1e−5°, about 0.3 µs a call).
 */
export function solarPosition(time: Date | number, observer: Observer): SolarPosition {
  const geometry = observerGeometry(observer);
  const jd = julianDay(epochMsOf(time));
  const sun = geocentricSun(jd + geometry.deltaTSeconds / SECONDS_PER_DAY);
  return topocentricPosition(
    {
      rightAscensionDeg: sun.rightAscensionDeg,
      declinationDeg: sun.declinationDeg,
      earthSunDistanceAu: sun.earthSunDistanceAu,
      apparentSiderealTimeDeg: apparentSiderealTimeDeg(
        jd,
        sun.nutationLongitudeDeg,
        sun.trueObliquityDeg,
      ),
      equationOfTimeMinutes: sun.equationOfTimeMinutes,
    },
    geometry,
  );
}
