/**
 * AC power of a PV array from plane-of-array irradiance and temperature: the PVWatts DC model
 * (A.P. Dobos, "PVWatts Version 5 Manual", NREL/TP-6A20-62641, 2014, eq. 6) with a linear power
 * temperature coefficient, a lumped system loss percentage, and optional inverter clipping.
 * Irradiance in W/m², temperatures in °C, power in W.
 */

/** Irradiance of standard test conditions (IEC 60904-3), W/m². */
export const STC_IRRADIANCE_W_M2 = 1000;
/** Cell temperature of standard test conditions, °C. */
export const STC_CELL_TEMPERATURE_C = 25;
/** Power temperature coefficient of typical crystalline-silicon modules, 1/K (−0.4 %/K). */
export const DEFAULT_TEMPERATURE_COEFFICIENT_PER_K = -0.004;
/** Wind speed assumed when none is measured, m/s (pvlib's Faiman default). */
export const DEFAULT_WIND_SPEED_MS = 1;
/** Faiman (2008) heat-loss coefficients for free-standing c-Si modules: W/(m²·K) and W·s/(m³·K). */
export const FAIMAN_U0 = 25;
export const FAIMAN_U1 = 6.84;
/** Nominal operating cell temperature of a typical module, °C (800 W/m², 20 °C, 1 m/s). */
export const DEFAULT_NOCT_C = 45;
/** NOCT reference conditions: irradiance W/m² and ambient °C (IEC 61215). */
const NOCT_IRRADIANCE_W_M2 = 800;
const NOCT_AMBIENT_C = 20;

/**
 * Cell temperature by Faiman's model: Tc = Ta + E / (U0 + U1·v).
 * D. Faiman, "Assessing the outdoor operating temperature of photovoltaic modules",
 * Progress in Photovoltaics 16 (2008) 307–315.
 */
export function cellTemperatureFaimanC(
  poaWm2: number,
  ambientC: number,
  windSpeedMs = DEFAULT_WIND_SPEED_MS,
  u0 = FAIMAN_U0,
  u1 = FAIMAN_U1,
): number {
  return ambientC + poaWm2 / (u0 + u1 * Math.max(windSpeedMs, 0));
}

/**
 * Cell temperature by the NOCT model (Ross 1976): Tc = Ta + (NOCT − 20) · E / 800.
 */
export function cellTemperatureNoctC(
  poaWm2: number,
  ambientC: number,
  noctC = DEFAULT_NOCT_C,
): number {
  return ambientC + ((noctC - NOCT_AMBIENT_C) * poaWm2) / NOCT_IRRADIANCE_W_M2;
}

export type CellTemperatureModel =
  { kind: 'FAIMAN'; u0?: number; u1?: number } | { kind: 'NOCT'; noctC?: number };

const DEFAULT_CELL_TEMPERATURE_MODEL: CellTemperatureModel = { kind: 'FAIMAN' };

/** A PV array as the plant's `pv` settings describe it, plus optional module/inverter details. */
export interface PvArrayRating {
  /** Nameplate DC power at STC, kWp. */
  peakPowerKw: number;
  /** Lumped system losses (wiring, soiling, mismatch, inverter...), percent 0..100. */
  lossesPercent: number;
  /** Power temperature coefficient, 1/K (default −0.004). */
  temperatureCoefficientPerK?: number;
  /** Inverter AC limit, W; output is clipped to it (default: no limit). */
  inverterLimitW?: number | null;
  /** Cell temperature model (default Faiman). */
  cellTemperatureModel?: CellTemperatureModel;
}

/** Cell temperature (°C) of `array` under `poaWm2` at ambient `ambientC`. */
export function cellTemperatureC(
  array: PvArrayRating,
  poaWm2: number,
  ambientC: number,
  windSpeedMs = DEFAULT_WIND_SPEED_MS,
): number {
  const model = array.cellTemperatureModel ?? DEFAULT_CELL_TEMPERATURE_MODEL;
  return model.kind === 'NOCT'
    ? cellTemperatureNoctC(poaWm2, ambientC, model.noctC)
    : cellTemperatureFaimanC(poaWm2, ambientC, windSpeedMs, model.u0, model.u1);
}

/** DC power (W) before system losses: P = Pstc · E/1000 · (1 + γ·(Tc − 25)), never negative. */
export function pvDcPowerW(
  poaWm2: number,
  cellTemperatureC: number,
  peakPowerKw: number,
  temperatureCoefficientPerK = DEFAULT_TEMPERATURE_COEFFICIENT_PER_K,
): number {
  if (!(poaWm2 > 0)) return 0;
  const power =
    peakPowerKw *
    1000 *
    (poaWm2 / STC_IRRADIANCE_W_M2) *
    (1 + temperatureCoefficientPerK * (cellTemperatureC - STC_CELL_TEMPERATURE_C));
  return Math.max(power, 0);
}

/** AC power (W) at a known cell temperature: DC × (1 − losses), clipped at the inverter limit. */
export function pvAcPowerAtCellTemperatureW(
  array: PvArrayRating,
  poaWm2: number,
  cellTemperatureC: number,
): number {
  const dc = pvDcPowerW(
    poaWm2,
    cellTemperatureC,
    array.peakPowerKw,
    array.temperatureCoefficientPerK ?? DEFAULT_TEMPERATURE_COEFFICIENT_PER_K,
  );
  const ac = dc * (1 - array.lossesPercent / 100);
  const limit = array.inverterLimitW;
  return limit != null && ac > limit ? limit : ac;
}

/** AC power (W) of `array` under `poaWm2` at ambient temperature `ambientC` and wind `windSpeedMs`. */
export function pvAcPowerW(
  array: PvArrayRating,
  poaWm2: number,
  ambientC: number,
  windSpeedMs = DEFAULT_WIND_SPEED_MS,
): number {
  return pvAcPowerAtCellTemperatureW(
    array,
    poaWm2,
    cellTemperatureC(array, poaWm2, ambientC, windSpeedMs),
  );
}
