import { createPvModel, type Irradiance, type PvModel } from '../domain/index.ts';
import { MINUTE_MS, MINUTES_PER_DAY, DAY_MS } from './plantClock.ts';
import type { WeatherDay, WeatherSite } from './weather.ts';

/**
 * Irradiance on the plane of the array and PV AC power for one UTC day: the domain's clear-sky
 * chain (solar position, Ineichen, Hay–Davies, PVWatts with cell temperature) under the
 * simulated clouds. Clouds scale global irradiance by the clear-sky index and the direct beam
 * by its transmittance; the rest of the global irradiance arrives as diffuse light.
 */

export interface PvArray {
  peakPowerKw: number;
  tiltDeg: number;
  /** Compass bearing the modules face (180 = south). */
  azimuthDeg: number;
  lossesPercent: number;
  /** AC limit of the inverter(s), W. */
  inverterLimitW: number | null;
}

export interface SolarDay {
  /** Global irradiance on the plane of the array, W/m². */
  poaWm2: Float64Array;
  /** AC power of the array, W (zero when the plant has no array). */
  pvW: Float64Array;
}

/** Below this elevation there is no usable daylight; skipping the chain saves half the work. */
const MIN_SUN_ELEVATION_DEG = -1;

export type SolarDaySimulator = (dayIndex: number, weather: WeatherDay) => SolarDay;

/**
 * `array` produces the power; `orientation` (the array's, or a default plane when the plant
 * has none) is where the irradiance sensor looks.
 */
export function createSolarDaySimulator(
  site: WeatherSite,
  array: PvArray | null,
  orientation: { tiltDeg: number; azimuthDeg: number },
): SolarDaySimulator {
  const model: PvModel = createPvModel({
    latitudeDeg: site.latitudeDeg,
    longitudeDeg: site.longitudeDeg,
    altitudeM: site.altitudeM,
    pv: {
      peakPowerKw: array?.peakPowerKw ?? 1,
      lossesPercent: array?.lossesPercent ?? 0,
      inverterLimitW: array?.inverterLimitW ?? null,
      tiltDeg: orientation.tiltDeg,
      azimuthDeg: orientation.azimuthDeg,
    },
  });

  return (dayIndex, weather) => {
    const poaWm2 = new Float64Array(MINUTES_PER_DAY);
    const pvW = new Float64Array(MINUTES_PER_DAY);
    const startMs = dayIndex * DAY_MS;
    for (let index = 0; index < MINUTES_PER_DAY; index++) {
      const time = startMs + index * MINUTE_MS;
      const sun = model.sunAt(time);
      if (sun.elevationDeg <= MIN_SUN_ELEVATION_DEG) continue;
      const clearSky = model.clearSkyAt(sun, time);
      if (!(clearSky.ghi > 0)) continue;
      const cloudy = underClouds(
        clearSky,
        sun.zenithDeg,
        weather.clearSkyIndex[index]!,
        weather.beamTransmittance[index]!,
      );
      const sample = model.powerFrom(sun, cloudy, weather.temperatureC[index]!);
      poaWm2[index] = Math.max(sample.poa.poaGlobal, 0);
      if (array) pvW[index] = Math.max(sample.acPowerW, 0);
    }
    return { poaWm2, pvW };
  };
}

/** Clear-sky irradiance under clouds; the diffuse part is what the beam leaves of the global. */
export function underClouds(
  clearSky: Irradiance,
  zenithDeg: number,
  clearSkyIndex: number,
  beamTransmittance: number,
): Irradiance {
  const ghi = clearSky.ghi * clearSkyIndex;
  const dni = clearSky.dni * beamTransmittance;
  const beamHorizontal = dni * Math.max(Math.cos((zenithDeg * Math.PI) / 180), 0);
  return { ghi, dni, dhi: Math.max(ghi - beamHorizontal, 0) };
}
