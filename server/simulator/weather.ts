import { clamp, signedNoise, smoothstep, STREAMS, valueNoise } from './noise.ts';
import { MINUTES_PER_DAY } from './plantClock.ts';

/**
 * Outdoor temperature and clouds of one plant, minute by minute, as pure functions of time.
 *
 * Temperature: a seasonal cycle for the latitude (and altitude), a daily cycle whose range is
 * larger under clear skies (coldest near sunrise, warmest mid-afternoon, by solar time), and
 * smooth noise over days (weather systems) and hours.
 *
 * Clouds: a regime variable drifting over days (clear, mixed, overcast) sets the share of the
 * sky covered; a cloud field moving over minutes decides when the sun is behind a cloud, with
 * soft edges, so the clear-sky index changes smoothly from one minute to the next and passing
 * clouds come and go on mixed days. Cloud edges briefly enhance irradiance above clear sky.
 */

export interface WeatherSite {
  latitudeDeg: number;
  longitudeDeg: number;
  altitudeM: number;
}

/** One UTC day of weather, one value per minute. */
export interface WeatherDay {
  temperatureC: Float64Array;
  /** Global horizontal irradiance over its clear-sky value. */
  clearSkyIndex: Float64Array;
  /** Share of the direct beam that gets through (0 behind a cloud, ~1 in clear sky). */
  beamTransmittance: Float64Array;
}

const DAYS_PER_YEAR = 365.2425;
/** Day of the year (from 1 January) that is coldest on average in the northern hemisphere. */
const COLDEST_DAY_OF_YEAR = 19;
const REGIME_SPACING_DAYS = 1.3;
/** Sunny more often than not: ~1 200 kWh/kWp a year for a south-facing roof near Bolzano. */
const MEAN_REGIME = 0.44;
/** Logistic scale that makes the cloud field about uniform (its sum has a spread of ~0.155). */
const FIELD_SPREAD = 0.085;

/** Annual mean and seasonal half-range of the daily mean temperature, °C. */
export function climateOf(site: WeatherSite): { meanC: number; seasonalAmplitudeC: number } {
  const latitude = Math.abs(site.latitudeDeg);
  const lapse = 0.0065 * Math.max(site.altitudeM, 0);
  return {
    meanC: Math.min(27, 31 - 0.38 * latitude) - lapse,
    seasonalAmplitudeC: clamp(0.28 * latitude - 1, 1, 16),
  };
}

/** Phase of the year at epoch day `days` (0 = coldest day of the northern winter). */
function seasonPhase(days: number): number {
  return (2 * Math.PI * (days - COLDEST_DAY_OF_YEAR)) / DAYS_PER_YEAR;
}

/** Cloudiness regime at epoch day `days`: 0 clear ... 1 overcast; drifts smoothly over days. */
export function cloudRegime(seed: number, site: WeatherSite, days: number): number {
  const hemisphere = site.latitudeDeg >= 0 ? 1 : -1;
  const winterBias = 0.08 * hemisphere * Math.cos(seasonPhase(days));
  const drift = valueNoise(seed, STREAMS.cloudRegime, days / REGIME_SPACING_DAYS);
  return clamp((drift - 0.5) * 1.2 + MEAN_REGIME + winterBias, 0, 1);
}

/** −1 at the daily minimum (06:00 solar time), +1 at the maximum (15:00), continuous. */
export function diurnalShape(solarHour: number): number {
  const hour = ((solarHour % 24) + 24) % 24;
  if (hour >= 6 && hour < 15) return -Math.cos((Math.PI * (hour - 6)) / 9);
  return Math.cos(Math.PI * (((hour - 15 + 24) % 24) / 15));
}

/** Outdoor temperature, °C, at epoch minute `minute`, given the cloud regime then. */
export function temperatureAt(
  seed: number,
  site: WeatherSite,
  minute: number,
  regime: number,
): number {
  const days = minute / MINUTES_PER_DAY;
  const { meanC, seasonalAmplitudeC } = climateOf(site);
  const hemisphere = site.latitudeDeg >= 0 ? 1 : -1;
  const seasonal = meanC - hemisphere * seasonalAmplitudeC * Math.cos(seasonPhase(days));
  const synoptic =
    3.5 * signedNoise(seed, STREAMS.temperatureSynoptic, days / 3.2) +
    1.2 * signedNoise(seed, STREAMS.temperatureSynoptic + 100, days);
  const solarHour = (minute % MINUTES_PER_DAY) / 60 + site.longitudeDeg / 15;
  const dailyHalfRange = 1.5 + 5 * (1 - regime);
  const flicker = 0.3 * signedNoise(seed, STREAMS.temperatureHourly, minute / 47);
  return seasonal + synoptic + dailyHalfRange * diurnalShape(solarHour) + flicker;
}

/** Clear-sky index and beam transmittance at epoch minute `minute` under regime `regime`. */
export function cloudsAt(
  seed: number,
  minute: number,
  regime: number,
): { clearSkyIndex: number; beamTransmittance: number } {
  const coverage = smoothstep(0.15, 0.85, regime);
  const sum =
    0.55 * valueNoise(seed, STREAMS.cloudField, minute / 17) +
    0.3 * valueNoise(seed, STREAMS.cloudFieldCoarse, minute / 53) +
    0.15 * valueNoise(seed, STREAMS.cloudFieldFine, minute / 5);
  // The sum bunches around 0.5; spread it to roughly uniform, so the share of time behind a
  // cloud follows the coverage instead of jumping from none to all around coverage 0.5.
  const field = 1 / (1 + Math.exp(-(sum - 0.5) / FIELD_SPREAD));
  const edge = 0.15;
  // 0 in sunshine, 1 behind a cloud; none at coverage 0, always at coverage 1.
  const shade = smoothstep(-edge, edge, coverage * (1 + 2 * edge) - edge - field);
  const clearness = 0.96 + 0.06 * valueNoise(seed, STREAMS.dayClearness, minute / 2880);
  const cloudTransmittance =
    (0.15 + 0.25 * valueNoise(seed, STREAMS.cloudDepth, minute / 90)) * (1 - 0.3 * regime);
  const enhancement = 0.12 * 4 * shade * (1 - shade);
  return {
    clearSkyIndex: clearness * (1 - shade) + cloudTransmittance * shade + enhancement,
    beamTransmittance: clearness * (1 - shade),
  };
}

/** The weather of UTC day `dayIndex` (days since 1970-01-01), minute by minute. */
export function weatherDay(seed: number, site: WeatherSite, dayIndex: number): WeatherDay {
  const temperatureC = new Float64Array(MINUTES_PER_DAY);
  const clearSkyIndex = new Float64Array(MINUTES_PER_DAY);
  const beamTransmittance = new Float64Array(MINUTES_PER_DAY);
  const firstMinute = dayIndex * MINUTES_PER_DAY;
  for (let index = 0; index < MINUTES_PER_DAY; index++) {
    const minute = firstMinute + index;
    const regime = cloudRegime(seed, site, minute / MINUTES_PER_DAY);
    temperatureC[index] = temperatureAt(seed, site, minute, regime);
    const clouds = cloudsAt(seed, minute, regime);
    clearSkyIndex[index] = clouds.clearSkyIndex;
    beamTransmittance[index] = clouds.beamTransmittance;
  }
  return { temperatureC, clearSkyIndex, beamTransmittance };
}
