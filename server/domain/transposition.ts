import { clampUnit, cosDeg, DEG_TO_RAD, RAD_TO_DEG } from './angles.ts';
import { SOLAR_CONSTANT_W_M2, type Irradiance } from './clearSky.ts';

/**
 * Transposition of horizontal irradiance to the plane of a PV array (plane of array, POA).
 *
 * Orientation convention (api-decisions: `pv.azimuthDeg`, 180 = south): the surface azimuth is the
 * compass bearing of the horizontal projection of the surface normal, degrees clockwise from north
 * (90 east, 180 south, 270 west), the same convention as the solar azimuth of `solarPosition`.
 * Tilt is degrees from horizontal (0 flat, 90 vertical). Irradiances are W/m².
 */

/** Ground albedo of grass or typical ground cover, the customary default (pvlib, PVGIS). */
export const DEFAULT_ALBEDO = 0.2;
/**
 * Lower bound on cos(zenith) in the Hay–Davies beam ratio Rb = cos θ / cos z, cos(89°), to keep Rb
 * finite at sunrise and sunset (pvlib GH 432 uses the same 0.01745).
 */
const MIN_COS_ZENITH_FOR_BEAM_RATIO = 0.01745;

/** The orientation of a PV array. */
export interface SurfaceOrientation {
  /** Tilt from horizontal, degrees (0..90). */
  tiltDeg: number;
  /** Compass bearing the surface faces, degrees clockwise from north (180 = south). */
  azimuthDeg: number;
}

/**
 * Cosine of the angle of incidence of the beam on the surface (may be negative when the sun is
 * behind it): cos θ = cos z·cos β + sin z·sin β·cos(γs − γ), with both azimuths compass bearings
 * (Duffie & Beckman, Solar Engineering of Thermal Processes, eq. 1.6.3; SPA report eq. 47).
 */
export function cosAngleOfIncidence(
  sunZenithDeg: number,
  sunAzimuthDeg: number,
  surface: SurfaceOrientation,
): number {
  const zenithRad = sunZenithDeg * DEG_TO_RAD;
  const tiltRad = surface.tiltDeg * DEG_TO_RAD;
  return clampUnit(
    Math.cos(zenithRad) * Math.cos(tiltRad) +
      Math.sin(zenithRad) *
        Math.sin(tiltRad) *
        Math.cos((sunAzimuthDeg - surface.azimuthDeg) * DEG_TO_RAD),
  );
}

/** Angle of incidence of the beam on the surface, degrees in [0, 180]. */
export function angleOfIncidenceDeg(
  sunZenithDeg: number,
  sunAzimuthDeg: number,
  surface: SurfaceOrientation,
): number {
  return Math.acos(cosAngleOfIncidence(sunZenithDeg, sunAzimuthDeg, surface)) * RAD_TO_DEG;
}

/**
 * Compass bearing of a surface given as the SPA report's "surface azimuth rotation angle" γ
 * (measured from south, positive toward west, negative toward east).
 */
export function compassAzimuthFromSpaRotation(rotationFromSouthDeg: number): number {
  return 180 + rotationFromSouthDeg;
}

export type DiffuseModel = 'HAY_DAVIES' | 'ISOTROPIC';

export interface PlaneOfArrayInput {
  /** Horizontal irradiance: GHI, DNI, DHI in W/m². */
  irradiance: Irradiance;
  /** Apparent solar zenith, degrees. */
  sunZenithDeg: number;
  /** Solar azimuth, degrees clockwise from north. */
  sunAzimuthDeg: number;
  surface: SurfaceOrientation;
  /** Extraterrestrial normal irradiance, W/m² (Hay–Davies anisotropy index; default 1361). */
  extraterrestrialWm2?: number;
  /** Ground reflectance 0..1 (default 0.2). */
  albedo?: number;
  /** Sky diffuse model (default Hay–Davies). */
  diffuseModel?: DiffuseModel;
}

/** Irradiance on the plane of the array, W/m². */
export interface PlaneOfArrayIrradiance {
  /** Beam + sky diffuse + ground-reflected. */
  poaGlobal: number;
  /** DNI · max(cos θ, 0). */
  poaBeam: number;
  poaSkyDiffuse: number;
  poaGroundReflected: number;
  /** Angle of incidence, degrees. */
  angleOfIncidenceDeg: number;
}

/**
 * Plane-of-array irradiance: beam from DNI and the angle of incidence; sky diffuse from the
 * Hay–Davies model (J.E. Hay and J.A. Davies, "Calculation of the solar radiation incident on an
 * inclined surface", Proc. First Canadian Solar Radiation Data Workshop, 1980: a circumsolar part
 * weighted by the anisotropy index Ai = DNI / E0n, the rest isotropic) or the isotropic model
 * (Liu & Jordan 1963); ground-reflected from GHI · albedo · (1 − cos β)/2.
 */
export function planeOfArrayIrradiance(input: PlaneOfArrayInput): PlaneOfArrayIrradiance {
  const { ghi, dni, dhi } = input.irradiance;
  const tiltRad = input.surface.tiltDeg * DEG_TO_RAD;
  const cosTilt = Math.cos(tiltRad);
  const cosTheta = cosAngleOfIncidence(input.sunZenithDeg, input.sunAzimuthDeg, input.surface);
  const beamCos = Math.max(cosTheta, 0);
  const poaBeam = dni * beamCos;
  const isotropicViewFactor = (1 + cosTilt) / 2;

  let poaSkyDiffuse: number;
  if ((input.diffuseModel ?? 'HAY_DAVIES') === 'ISOTROPIC') {
    poaSkyDiffuse = dhi * isotropicViewFactor;
  } else {
    const e0 = input.extraterrestrialWm2 ?? SOLAR_CONSTANT_W_M2;
    const anisotropyIndex = Math.min(Math.max(dni / e0, 0), 1);
    const beamRatio = beamCos / Math.max(cosDeg(input.sunZenithDeg), MIN_COS_ZENITH_FOR_BEAM_RATIO);
    poaSkyDiffuse =
      dhi * (anisotropyIndex * beamRatio + (1 - anisotropyIndex) * isotropicViewFactor);
  }
  const poaGroundReflected = (ghi * (input.albedo ?? DEFAULT_ALBEDO) * (1 - cosTilt)) / 2;
  return {
    poaGlobal: poaBeam + poaSkyDiffuse + poaGroundReflected,
    poaBeam,
    poaSkyDiffuse,
    poaGroundReflected,
    angleOfIncidenceDeg: Math.acos(cosTheta) * RAD_TO_DEG,
  };
}
