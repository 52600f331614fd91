import {
  clearSkyIrradiance,
  DEFAULT_LINKE_TURBIDITY,
  extraterrestrialIrradiance,
  linkeTurbidityForMonth,
  type Irradiance,
  type LinkeTurbidity,
} from './clearSky.ts';
import { pvAcPowerW, type PvArrayRating } from './pvPower.ts';
import { epochMsOf, type SolarPosition } from './solarPosition.ts';
import { createSolarPositionCalculator } from './solarPositionFast.ts';
import {
  planeOfArrayIrradiance,
  type DiffuseModel,
  type PlaneOfArrayIrradiance,
  type SurfaceOrientation,
} from './transposition.ts';

/**
 * The whole chain for one PV plant: solar position (SPA, fast path) → clear-sky irradiance
 * (Ineichen–Perez) → plane of array (Hay–Davies) → AC power (PVWatts with Faiman cell
 * temperature). The simulator scales the irradiance for clouds; forecasts and PV health use the
 * clear-sky power and energy directly.
 */

/** A plant's location and `pv` settings (api-decisions: azimuthDeg 180 = south). */
export interface PvSite {
  latitudeDeg: number;
  longitudeDeg: number;
  /** Metres above sea level (default 0). */
  altitudeM?: number;
  /** PV array: peak power, losses, tilt and compass azimuth (plus optional module details). */
  pv: PvArrayRating & SurfaceOrientation;
  /** Linke turbidity, constant or 12 monthly values (default 3). */
  linkeTurbidity?: LinkeTurbidity;
  /** Ground albedo (default 0.2). */
  albedo?: number;
  /** Sky diffuse model (default Hay–Davies). */
  diffuseModel?: DiffuseModel;
}

/** Everything computed for one instant. */
export interface PvSample {
  sun: SolarPosition;
  /** Horizontal irradiance used (clear-sky, or the caller's), W/m². */
  irradiance: Irradiance;
  poa: PlaneOfArrayIrradiance;
  /** AC power, W. */
  acPowerW: number;
}

export interface PvModel {
  /** Sun position at `time` (SPA fast path for this site). */
  sunAt(time: Date | number): SolarPosition;
  /** Clear-sky horizontal irradiance for the sun at `sun`; turbidity of the UTC month of `time`. */
  clearSkyAt(sun: SolarPosition, time: Date | number): Irradiance;
  /** AC power (W) from horizontal irradiance `irradiance` with the sun at `sun`. */
  powerFrom(
    sun: SolarPosition,
    irradiance: Irradiance,
    ambientC: number,
    windSpeedMs?: number,
  ): PvSample;
  /** Clear-sky AC power sample at `time`. */
  clearSkySample(time: Date | number, ambientC: number, windSpeedMs?: number): PvSample;
  /**
   * Clear-sky AC energy (kWh) between two instants (epoch ms), by the midpoint rule with steps of
   * `stepMs` (default 5 minutes; the error is below 0.1 % of a day's energy).
   */
  clearSkyEnergyKwh(startMs: number, endMs: number, ambientC: number, stepMs?: number): number;
}

const DEFAULT_ENERGY_STEP_MS = 300_000;
const MS_PER_HOUR = 3_600_000;

export function createPvModel(site: PvSite): PvModel {
  const sunAt = createSolarPositionCalculator({
    latitudeDeg: site.latitudeDeg,
    longitudeDeg: site.longitudeDeg,
    elevationM: site.altitudeM ?? 0,
  });
  const turbidity = site.linkeTurbidity ?? DEFAULT_LINKE_TURBIDITY;
  const altitudeM = site.altitudeM ?? 0;

  const clearSkyAt = (sun: SolarPosition, time: Date | number): Irradiance => {
    const monthIndex = typeof turbidity === 'number' ? 0 : new Date(epochMsOf(time)).getUTCMonth();
    return clearSkyIrradiance({
      zenithDeg: sun.zenithDeg,
      earthSunDistanceAu: sun.earthSunDistanceAu,
      altitudeM,
      linkeTurbidity: linkeTurbidityForMonth(turbidity, monthIndex),
    });
  };

  const powerFrom = (
    sun: SolarPosition,
    irradiance: Irradiance,
    ambientC: number,
    windSpeedMs?: number,
  ): PvSample => {
    const poa = planeOfArrayIrradiance({
      irradiance,
      sunZenithDeg: sun.zenithDeg,
      sunAzimuthDeg: sun.azimuthDeg,
      surface: site.pv,
      extraterrestrialWm2: extraterrestrialIrradiance(sun.earthSunDistanceAu),
      albedo: site.albedo,
      diffuseModel: site.diffuseModel,
    });
    return {
      sun,
      irradiance,
      poa,
      acPowerW: pvAcPowerW(site.pv, poa.poaGlobal, ambientC, windSpeedMs),
    };
  };

  const clearSkySample = (
    time: Date | number,
    ambientC: number,
    windSpeedMs?: number,
  ): PvSample => {
    const sun = sunAt(time);
    return powerFrom(sun, clearSkyAt(sun, time), ambientC, windSpeedMs);
  };

  const clearSkyEnergyKwh = (
    startMs: number,
    endMs: number,
    ambientC: number,
    stepMs = DEFAULT_ENERGY_STEP_MS,
  ): number => {
    let energyWh = 0;
    for (let from = startMs; from < endMs; from += stepMs) {
      const to = Math.min(from + stepMs, endMs);
      const sample = clearSkySample((from + to) / 2, ambientC);
      energyWh += (sample.acPowerW * (to - from)) / MS_PER_HOUR;
    }
    return energyWh / 1000;
  };

  return { sunAt, clearSkyAt, powerFrom, clearSkySample, clearSkyEnergyKwh };
}
