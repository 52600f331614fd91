import type { StoredText } from '../../../i18n/text.ts';

/**
 * What the wiring and plausibility checks of commissioning (issue 14) take and give. The input
 * is shaped like the API's resources (a `Plant` passes as `WiringPlant` as it is) but does not
 * say where readings come from: a server with the sensor-readings extension gives every
 * sensor's own readings, the specification's routes only the plant's production and
 * consumption (`WiringInput.flows`).
 */

/** One reading: epoch milliseconds and the value in the sensor's declared unit. */
export type Reading = readonly [atMs: number, value: number];

export type WiringFlow = 'PRODUCTION' | 'CONSUMPTION' | 'GRID' | 'STORAGE' | 'AMBIENT';
export type WiringDeviceCategory = 'PRODUCER' | 'CONSUMER' | 'STORAGE' | 'GRID';

export interface WiringPlant {
  location: {
    latitude: number;
    longitude: number;
    /** IANA zone name the plant's local dates are in. */
    timezone: string;
    altitudeM?: number | null;
  };
  /** The plant's PV settings (api-decisions: azimuthDeg 180 = south); null without PV. */
  pv: {
    peakPowerKw: number;
    tiltDeg: number;
    azimuthDeg: number;
    lossesPercent: number;
  } | null;
}

export interface WiringDevice {
  deviceUuid: string;
  name: string;
  /** The device type's category; null when unknown. */
  category: WiringDeviceCategory | null;
  /** Nameplate power, W; null when not recorded. */
  ratedPowerW: number | null;
}

export interface WiringSensor {
  sensorUuid: string;
  name: string;
  deviceUuid: string | null;
  flow: WiringFlow;
  /** The primary data type's code: POWER, ENERGY, STATE_OF_CHARGE… */
  dataType: string;
  /** The declared unit of its readings (W, kW, MW, %, kWh…); null when unknown. */
  unit: string | null;
  /**
   * The server negates every reading of this sensor (the `signInverted` extension): the
   * readings below are already inverted, so a check finding them reversed proposes to toggle it.
   */
  signInverted?: boolean;
  /** Its readings of the last 15 minutes, oldest first; null when they cannot be read. */
  readings: readonly Reading[] | null;
}

export interface WiringInput {
  plant: WiringPlant;
  devices: readonly WiringDevice[];
  sensors: readonly WiringSensor[];
  /**
   * The plant's production and consumption power (W) as the server combines them (the
   * specification's sensor-history routes), for sensors whose own readings are null.
   */
  flows?: { production?: readonly Reading[]; consumption?: readonly Reading[] };
  /** When the checks run, epoch ms; the window is the 15 minutes before it. */
  now: number;
}

export const WIRING_CHECK_IDS = [
  'productionSign',
  'consumptionSign',
  'gridSign',
  'storageSign',
  'energyBalance',
  'productionVsClearSky',
  'powerUnits',
  'pvSettings',
  'timeZone',
] as const;
export type WiringCheckId = (typeof WIRING_CHECK_IDS)[number];

export const WIRING_CHECK_TITLES: Record<WiringCheckId, string> = {
  productionSign: 'Production is never negative',
  consumptionSign: 'Consumption is never negative',
  gridSign: "The grid meter's sign agrees with production and consumption",
  storageSign: "The battery's sign agrees with its state of charge",
  energyBalance: 'Consumption = production + grid + battery',
  productionVsClearSky: 'Production is plausible for the sun now',
  powerUnits: 'Power is reported in the declared unit',
  pvSettings: 'PV settings are complete',
  timeZone: 'The time zone matches the coordinates',
};

export type WiringStatus = 'pass' | 'warning' | 'fail' | 'notApplicable';

/** A number a check compared, named for the screen and the report. */
export interface Figure {
  /** A message (or, in texts kept from before the languages, English words). */
  name: StoredText;
  value: number | null;
  unit: string;
}

export interface WiringCheckResult {
  id: WiringCheckId;
  title: string;
  status: WiringStatus;
  /** The sensor or device the result is about; null for the plant as a whole. */
  subject: { uuid: string; name: string } | null;
  figures: Figure[];
  /**
   * One sentence: what was found. A message key with its figures, worded where it is shown
   * (wordsOf, i18n/text.ts) in the reader's language.
   */
  finding: StoredText;
  /** What to do about it; the empty string when nothing is to be done. */
  action: StoredText;
}
