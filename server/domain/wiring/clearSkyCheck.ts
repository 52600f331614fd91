import { createPvModel } from '../clearSkyPv.ts';
import { solarPosition } from '../solarPosition.ts';
import { flowSamples, gridInstants, knownValues, meanOf } from './series.ts';
import type { WiringCheckResult, WiringInput } from './types.ts';
import { figure, formatPower, quoted, result, watts } from './wording.ts';

/**
 * Production against what a clear sky allows for the plant's location, orientation and peak
 * power over the window: far above it the unit or the peak power is wrong; nothing in good sun
 * means the inverter is disconnected or tripped. Clouds only lower production, so anything
 * between is plausible.
 */

/** Ambient temperature for the clear-sky model, °C (as the forecasts take it). */
export const CLEAR_SKY_AMBIENT_C = 15;
/** Below this sun elevation, or this share of peak power expected, there is nothing to judge. */
export const DAYLIGHT_SUN_ELEVATION_DEG = 5;
export const DAYLIGHT_MIN_PEAK_SHARE = 0.05;
/** "Good sun": clear sky allows at least this share of peak power… */
export const GOOD_SUN_PEAK_SHARE = 0.2;
/** …and production never above this share of peak power is "nothing" (overcast still gives more). */
export const NOTHING_PEAK_SHARE = 0.01;
/** Cloud edges lift irradiance above clear sky by up to a fifth, briefly. */
export const CLEAR_SKY_ENHANCEMENT = 1.25;
/** Above this many times clear sky, production is a wrong setting, not weather. */
export const FAR_ABOVE_CLEAR_SKY = 2;
/** Allowance on top of clear sky (meters' offsets, the model's error near sunrise), × peak. */
const ABOVE_ALLOWANCE_PEAK_SHARE = 0.03;

/** The mean clear-sky AC power over the window, W; null without PV settings. */
export function clearSkyExpectationW(input: WiringInput): number | null {
  const { plant, now } = input;
  if (!plant.pv) return null;
  const model = createPvModel({
    latitudeDeg: plant.location.latitude,
    longitudeDeg: plant.location.longitude,
    altitudeM: plant.location.altitudeM ?? 0,
    pv: plant.pv,
  });
  const clearSky = gridInstants(now).map(
    (atMs) => model.clearSkySample(atMs, CLEAR_SKY_AMBIENT_C).acPowerW,
  );
  return clearSky.reduce((sum, value) => sum + value, 0) / clearSky.length;
}

/** The sun's elevation at `now` over the plant, degrees. */
function sunElevationDeg(input: WiringInput): number {
  const { location } = input.plant;
  return solarPosition(input.now, {
    latitudeDeg: location.latitude,
    longitudeDeg: location.longitude,
    elevationM: location.altitudeM ?? 0,
  }).elevationDeg;
}

export function productionVsClearSky(
  input: WiringInput,
  suspects: ReadonlySet<string>,
): WiringCheckResult {
  const pv = input.plant.pv;
  if (!pv) {
    return result(
      'productionVsClearSky',
      'notApplicable',
      null,
      [],
      'The plant has no PV settings, so there is no expectation to compare with.',
    );
  }
  const production = flowSamples(input, 'PRODUCTION');
  if (!production) {
    return result(
      'productionVsClearSky',
      'notApplicable',
      null,
      [],
      'Production is not measured, or its readings cannot be read.',
    );
  }
  const subject = production.sensors.length === 1 ? production.sensors[0]! : null;
  const suspected = production.sensors.filter((sensor) => suspects.has(sensor.sensorUuid));
  if (suspected.length > 0) {
    return result(
      'productionVsClearSky',
      'notApplicable',
      subject,
      [],
      `Not judged while ${suspected.map((sensor) => quoted(sensor.name)).join(', ')} is found wrong by another check.`,
      'Fix that first, then run the checks again.',
    );
  }
  const expected = clearSkyExpectationW(input)!;
  const elevation = sunElevationDeg(input);
  const peakW = pv.peakPowerKw * 1000;
  const measured = knownValues(production.samples);
  const measuredMean = meanOf(production.samples);
  const figures = [
    watts('production, mean', measuredMean),
    watts('production, highest', measured.length > 0 ? Math.max(...measured) : null),
    watts('clear-sky expectation, mean', expected),
    figure(
      'production ÷ clear sky',
      measuredMean === null || expected <= 0 ? null : measuredMean / expected,
      '×',
      2,
    ),
    figure('sun elevation now', elevation, '°', 1),
    figure('peak power', pv.peakPowerKw, 'kWp', 2),
  ];
  const name = subject ? quoted(subject.name) : 'Production';
  if (measuredMean === null) {
    return result(
      'productionVsClearSky',
      'notApplicable',
      subject,
      figures,
      'Production has no reading in the window.',
    );
  }
  const allowed = CLEAR_SKY_ENHANCEMENT * expected + ABOVE_ALLOWANCE_PEAK_SHARE * peakW;
  if (measuredMean > allowed) {
    const ratio = measuredMean / Math.max(expected, 1);
    const night = elevation < 0 && expected < ABOVE_ALLOWANCE_PEAK_SHARE * peakW;
    return result(
      'productionVsClearSky',
      night || measuredMean > FAR_ABOVE_CLEAR_SKY * allowed ? 'fail' : 'warning',
      subject,
      figures,
      night
        ? `${name} reads ${formatPower(measuredMean)} with the sun below the horizon.`
        : `${name} reads ${formatPower(measuredMean)}, ${ratio.toFixed(1)}× the ${formatPower(expected)} a clear sky allows for ${pv.peakPowerKw} kWp now.`,
      night
        ? 'Check that the sensor measures the PV, and that its readings carry the right time (a logger clock in local time sent as UTC).'
        : "Check the meter's unit (W or kW) and the plant's peak power in the PV settings.",
    );
  }
  if (elevation < DAYLIGHT_SUN_ELEVATION_DEG || expected < DAYLIGHT_MIN_PEAK_SHARE * peakW) {
    return result(
      'productionVsClearSky',
      'notApplicable',
      subject,
      figures,
      `The sun is too low to judge production (${elevation.toFixed(0)}° elevation; clear sky allows ${formatPower(expected)}).`,
      'Run the checks again in daylight.',
    );
  }
  const highest = Math.max(...measured);
  if (expected >= GOOD_SUN_PEAK_SHARE * peakW && highest <= NOTHING_PEAK_SHARE * peakW) {
    return result(
      'productionVsClearSky',
      'fail',
      subject,
      figures,
      `${name} reads at most ${formatPower(highest)} while a clear sky allows ${formatPower(expected)} now: even an overcast sky gives more.`,
      "Check the inverter's display and its AC breaker (disconnected or tripped); if snow covers the modules, check again when it is gone.",
    );
  }
  return result(
    'productionVsClearSky',
    'pass',
    subject,
    figures,
    `${name} reads ${formatPower(measuredMean)}, ${((measuredMean / expected) * 100).toFixed(0)} % of the ${formatPower(expected)} a clear sky allows now (clouds lower it).`,
  );
}
