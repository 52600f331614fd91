import { cosDeg } from './angles.ts';

/**
 * Clear-sky irradiance: air mass, extraterrestrial irradiance, the Ineichen–Perez model (GHI, DNI,
 * DHI from the Linke turbidity) and the Haurwitz model (GHI from the zenith angle only).
 * Irradiances are in W/m²; angles in degrees; the zenith is the apparent (refraction-corrected) one.
 */

/** Total solar irradiance at 1 AU, W/m² (Kopp & Lean 2011, GRL 38 L01706; IAU 2015 B3 nominal). */
export const SOLAR_CONSTANT_W_M2 = 1361;
/** Standard sea-level pressure, Pa (ISO 2533). */
export const STANDARD_PRESSURE_PA = 101_325;
/** Linke turbidity of a typical central-European sky (annual mean of the SoDa climatology ≈ 3). */
export const DEFAULT_LINKE_TURBIDITY = 3;

/**
 * Daylight for judging production, degrees of sun elevation. Below it there is too little light
 * for any plant to feed in, so 0 W then is no outage: a clear sky reaches 50 W/m² of global
 * irradiance at about 5° (Haurwitz, `haurwitzGhi`), the threshold availability practice commonly
 * counts from. The wiring checks, the desktop monitor's production rules and the reports'
 * availability all count daylight from here.
 */
export const DAYLIGHT_SUN_ELEVATION_DEG = 5;

/** Kasten & Young (1989), Applied Optics 28(22): AM = 1/(cos z + a·(b − z)^−c), z in degrees. */
const KASTEN_YOUNG_A = 0.50572;
const KASTEN_YOUNG_B_DEG = 96.07995;
const KASTEN_YOUNG_C = 1.6364;

/**
 * Relative optical air mass (Kasten & Young 1989) at apparent zenith `zenithDeg`.
 * Infinity once the sun is below the horizon (zenith > 90°), so transmittances become 0.
 */
export function relativeAirMass(zenithDeg: number): number {
  if (!(zenithDeg <= 90)) return Number.POSITIVE_INFINITY;
  return (
    1 /
    (cosDeg(zenithDeg) + KASTEN_YOUNG_A * Math.pow(KASTEN_YOUNG_B_DEG - zenithDeg, -KASTEN_YOUNG_C))
  );
}

/** Pressure-corrected (absolute) air mass: relative air mass × p / p0. */
export function absoluteAirMass(relative: number, pressurePa = STANDARD_PRESSURE_PA): number {
  return (relative * pressurePa) / STANDARD_PRESSURE_PA;
}

/**
 * Mean atmospheric pressure (Pa) at `altitudeM` metres, from the ICAO standard atmosphere
 * (the same closed form as pvlib `atmosphere.alt2pres`).
 */
export function pressureAtAltitudePa(altitudeM: number): number {
  return 100 * Math.pow((44331.514 - altitudeM) / 11880.516, 1 / 0.1902632);
}

/** Extraterrestrial normal irradiance (W/m²) at Earth–Sun distance `earthSunDistanceAu` (1/r²). */
export function extraterrestrialIrradiance(
  earthSunDistanceAu: number,
  solarConstantWm2 = SOLAR_CONSTANT_W_M2,
): number {
  return solarConstantWm2 / (earthSunDistanceAu * earthSunDistanceAu);
}

/**
 * Extraterrestrial normal irradiance (W/m²) from the day of the year (1..366) with Spencer's
 * (1971) Fourier series for (r0/r)², for callers without a solar position at hand. Within 0.15 %
 * of the 1/r² of the SPA distance.
 */
export function extraterrestrialIrradianceForDay(
  dayOfYear: number,
  solarConstantWm2 = SOLAR_CONSTANT_W_M2,
): number {
  const b = (2 * Math.PI * (dayOfYear - 1)) / 365;
  const inverseSquaredDistance =
    1.00011 +
    0.034221 * Math.cos(b) +
    0.00128 * Math.sin(b) +
    0.000719 * Math.cos(2 * b) +
    0.000077 * Math.sin(2 * b);
  return solarConstantWm2 * inverseSquaredDistance;
}

/** A constant Linke turbidity, or 12 monthly values (January first). */
export type LinkeTurbidity = number | readonly number[];

/** The Linke turbidity for `monthIndex` (0 = January); a single number applies to every month. */
export function linkeTurbidityForMonth(turbidity: LinkeTurbidity, monthIndex: number): number {
  if (typeof turbidity === 'number') return turbidity;
  if (turbidity.length !== 12) throw new RangeError('monthly Linke turbidity needs 12 values');
  const value = turbidity[((monthIndex % 12) + 12) % 12];
  return value ?? DEFAULT_LINKE_TURBIDITY;
}

/** Global horizontal, direct normal and diffuse horizontal irradiance, W/m². */
export interface Irradiance {
  ghi: number;
  dni: number;
  dhi: number;
}

export const NO_IRRADIANCE: Readonly<Irradiance> = Object.freeze({ ghi: 0, dni: 0, dhi: 0 });

export interface IneichenInput {
  /** Apparent (refraction-corrected) solar zenith, degrees. */
  zenithDeg: number;
  /** Absolute (pressure-corrected) air mass. */
  airMassAbsolute: number;
  linkeTurbidity: number;
  /** Site altitude, metres (default 0). */
  altitudeM?: number;
  /** Extraterrestrial normal irradiance, W/m² (default 1364, the value pvlib's reference uses). */
  extraterrestrialWm2?: number;
}

/** pvlib's default `dni_extra` of `clearsky.ineichen`; keeps the published test values reproducible. */
const PVLIB_INEICHEN_DEFAULT_EXTRATERRESTRIAL = 1364;

/**
 * Ineichen–Perez clear-sky model: P. Ineichen and R. Perez, "A new airmass independent formulation
 * for the Linke turbidity coefficient", Solar Energy 73(3) 151–157 (2002), with the corrections of
 * Perez et al., Solar Energy 73(5) 307–317 (2002) p. 311 (fh2·(TL − 1)), and b = 0.664 + 0.163/fh1
 * (Ineichen 2008), exactly as pvlib `clearsky.ineichen` without the Perez enhancement.
 * Night (zenith ≥ 90°) gives zeros.
 */
export function ineichenPerez(input: IneichenInput): Irradiance {
  const cosZenith = cosDeg(input.zenithDeg);
  if (!(cosZenith > 0) || !Number.isFinite(input.airMassAbsolute)) return { ...NO_IRRADIANCE };
  const altitudeM = input.altitudeM ?? 0;
  const e0 = input.extraterrestrialWm2 ?? PVLIB_INEICHEN_DEFAULT_EXTRATERRESTRIAL;
  const tl = input.linkeTurbidity;
  const am = input.airMassAbsolute;
  const fh1 = Math.exp(-altitudeM / 8000);
  const fh2 = Math.exp(-altitudeM / 1250);
  const cg1 = 5.09e-5 * altitudeM + 0.868;
  const cg2 = 3.92e-5 * altitudeM + 0.0387;

  const ghi = cg1 * e0 * cosZenith * Math.exp(-cg2 * am * (fh1 + fh2 * (tl - 1)));
  const b = 0.664 + 0.163 / fh1;
  const beamFromTurbidity = b * e0 * Math.exp(-0.09 * am * (tl - 1));
  // Empirical correction that keeps DNI consistent with GHI at low sun (SE 73, 157 and 312).
  const beamFromGlobal =
    (ghi * Math.max(0, 1 - (0.1 - 0.2 * Math.exp(-tl)) / (0.1 + 0.882 / fh1))) / cosZenith;
  const dni = Math.min(beamFromTurbidity, beamFromGlobal);
  return { ghi, dni, dhi: ghi - dni * cosZenith };
}

export interface ClearSkyInput {
  /** Apparent solar zenith, degrees. */
  zenithDeg: number;
  /** Earth–Sun distance, AU (from the solar position). */
  earthSunDistanceAu: number;
  /** Site altitude, metres (default 0). */
  altitudeM?: number;
  /** Linke turbidity (default 3). */
  linkeTurbidity?: number;
}

/**
 * Clear-sky GHI/DNI/DHI at a site: Ineichen–Perez with the Kasten–Young air mass corrected for the
 * standard pressure at the site's altitude, and the extraterrestrial irradiance of the day's
 * Earth–Sun distance. This mirrors pvlib `Location.get_clearsky(model='ineichen')`, except that
 * the extraterrestrial irradiance comes from 1361 W/m² and the SPA distance (pvlib: Spencer with
 * 1366.1 W/m², 0.4 % higher).
 */
export function clearSkyIrradiance(input: ClearSkyInput): Irradiance {
  if (!(input.zenithDeg < 90)) return { ...NO_IRRADIANCE };
  const altitudeM = input.altitudeM ?? 0;
  return ineichenPerez({
    zenithDeg: input.zenithDeg,
    airMassAbsolute: absoluteAirMass(
      relativeAirMass(input.zenithDeg),
      pressureAtAltitudePa(altitudeM),
    ),
    linkeTurbidity: input.linkeTurbidity ?? DEFAULT_LINKE_TURBIDITY,
    altitudeM,
    extraterrestrialWm2: extraterrestrialIrradiance(input.earthSunDistanceAu),
  });
}

/** Haurwitz (1945) coefficients as tabulated by Reno, Hansen & Stein, SAND2012-2389, eq. 3. */
const HAURWITZ_SCALE_W_M2 = 1098;
const HAURWITZ_EXTINCTION = 0.057;

/**
 * Haurwitz clear-sky GHI (W/m²): 1098 · cos z · exp(−0.057 / cos z); 0 with the sun down.
 * (pvlib's `clearsky.haurwitz` uses 0.059 in the exponent; we follow the SAND report.)
 */
export function haurwitzGhi(zenithDeg: number): number {
  const cosZenith = cosDeg(zenithDeg);
  if (!(cosZenith > 0)) return 0;
  return HAURWITZ_SCALE_W_M2 * cosZenith * Math.exp(-HAURWITZ_EXTINCTION / cosZenith);
}
