import type { PvSite } from '../domain/index.ts';
import type { PlantRow } from '../db/tables.ts';
import { unprocessable } from '../http/errors.ts';

/** A plant's location and `pv` settings as the PV model takes them; null without `pv`. */
export function pvSiteOf(plant: Readonly<PlantRow>): PvSite | null {
  if (plant.pv_peak_power_kw === null) return null;
  return {
    latitudeDeg: plant.latitude,
    longitudeDeg: plant.longitude,
    altitudeM: plant.altitude_m ?? 0,
    pv: {
      peakPowerKw: plant.pv_peak_power_kw,
      tiltDeg: plant.pv_tilt_deg ?? 0,
      azimuthDeg: plant.pv_azimuth_deg ?? 180,
      lossesPercent: plant.pv_losses_percent ?? 0,
    },
  };
}

/** The PV site, or 422 naming the missing setting. */
export function requirePvSite(plant: Readonly<PlantRow>, purpose: string): PvSite {
  const site = pvSiteOf(plant);
  if (!site) {
    throw unprocessable(
      `Plant ${plant.plant_uuid} has no pv settings (pv.peakPowerKw, pv.tiltDeg, pv.azimuthDeg, ` +
        `pv.lossesPercent): ${purpose} needs them`,
    );
  }
  return site;
}
