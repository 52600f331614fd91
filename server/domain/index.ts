/**
 * Pure PV-production math: solar position (NREL SPA), clear-sky irradiance (Ineichen–Perez,
 * Haurwitz), transposition to the plane of the array (Hay–Davies), PV power (PVWatts, Faiman),
 * clear-sky index and empirical prediction intervals. No I/O; every function is deterministic.
 */

export {
  DEG_TO_RAD,
  RAD_TO_DEG,
  cosDeg,
  sinDeg,
  normalizeDeg180,
  normalizeDeg360,
} from './angles.ts';
export {
  ATMOSPHERIC_REFRACTION_AT_HORIZON_DEG,
  DEFAULT_DELTA_T_SECONDS,
  DEFAULT_PRESSURE_MBAR,
  DEFAULT_TEMPERATURE_C,
  SUN_RADIUS_DEG,
  geocentricSun,
  julianDay,
  solarPosition,
  type GeocentricSun,
  type Observer,
  type SolarPosition,
} from './solarPosition.ts';
export {
  createSolarPositionCalculator,
  type SolarPositionCalculator,
} from './solarPositionFast.ts';
export { sunEvents, type DaylightKind, type LocalDate, type SunEvents } from './sunriseSunset.ts';
export {
  DEFAULT_LINKE_TURBIDITY,
  NO_IRRADIANCE,
  SOLAR_CONSTANT_W_M2,
  STANDARD_PRESSURE_PA,
  absoluteAirMass,
  clearSkyIrradiance,
  extraterrestrialIrradiance,
  extraterrestrialIrradianceForDay,
  haurwitzGhi,
  ineichenPerez,
  linkeTurbidityForMonth,
  pressureAtAltitudePa,
  relativeAirMass,
  type ClearSkyInput,
  type IneichenInput,
  type Irradiance,
  type LinkeTurbidity,
} from './clearSky.ts';
export {
  DEFAULT_ALBEDO,
  angleOfIncidenceDeg,
  compassAzimuthFromSpaRotation,
  cosAngleOfIncidence,
  planeOfArrayIrradiance,
  type DiffuseModel,
  type PlaneOfArrayInput,
  type PlaneOfArrayIrradiance,
  type SurfaceOrientation,
} from './transposition.ts';
export {
  DEFAULT_NOCT_C,
  DEFAULT_TEMPERATURE_COEFFICIENT_PER_K,
  DEFAULT_WIND_SPEED_MS,
  FAIMAN_U0,
  FAIMAN_U1,
  STC_CELL_TEMPERATURE_C,
  STC_IRRADIANCE_W_M2,
  cellTemperatureC,
  cellTemperatureFaimanC,
  cellTemperatureNoctC,
  pvAcPowerAtCellTemperatureW,
  pvAcPowerW,
  pvDcPowerW,
  type CellTemperatureModel,
  type PvArrayRating,
} from './pvPower.ts';
export { createPvModel, type PvModel, type PvSample, type PvSite } from './clearSkyPv.ts';
export {
  MAX_CLEAR_SKY_INDEX,
  MIN_CLEAR_SKY_INDEX,
  MIN_SUN_ELEVATION_DEG,
  clearSkyIndex,
  type ClearSkyIndexOptions,
  type ClearSkyIndexSample,
} from './clearSkyIndex.ts';
export {
  DEFAULT_INTERVAL_COVERAGE,
  predictionInterval,
  quantile,
  quantileSorted,
  residualIntervalOffsets,
  type IntervalOffsets,
  type PredictionInterval,
} from './intervals.ts';
