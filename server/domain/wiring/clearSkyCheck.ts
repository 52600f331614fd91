import { DAYLIGHT_SUN_ELEVATION_DEG } from '../clearSky.ts';
import { createPvModel } from '../clearSkyPv.ts';
import { solarPosition } from '../solarPosition.ts';
import { flowSamples, gridInstants, knownValues, meanOf } from './series.ts';
import type { WiringCheckResult, WiringInput } from './types.ts';
import {
  figure,
  FIX_FIRST,
  notJudgedWhile,
  number,
  power,
  quoted,
  result,
  say,
  watts,
} from './wording.ts';

/**
 * Production against what a clear sky allows for the plant's location, orientation and peak
 * power over the window: far above it the unit or the peak power is wrong; nothing in good sun
 * means the inverter is disconnected or tripped. Clouds only lower production, so anything
 * between is plausible.
 */

/** Ambient temperature for the clear-sky model, °C (as the forecasts take it). */
export const CLEAR_SKY_AMBIENT_C = 15;
/** Below the domain's daylight, or this share of peak power expected, there is nothing to judge. */
export { DAYLIGHT_SUN_ELEVATION_DEG };
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
    return result('productionVsClearSky', 'notApplicable', null, [], say('wiring.clearSky.noPv'));
  }
  const production = flowSamples(input, 'PRODUCTION');
  if (!production) {
    return result(
      'productionVsClearSky',
      'notApplicable',
      null,
      [],
      say('wiring.clearSky.notMeasured'),
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
      notJudgedWhile(suspected),
      FIX_FIRST,
    );
  }
  const expected = clearSkyExpectationW(input)!;
  const elevation = sunElevationDeg(input);
  const peakW = pv.peakPowerKw * 1000;
  const measured = knownValues(production.samples);
  const measuredMean = meanOf(production.samples);
  const figures = [
    watts(say('wiring.figures.productionMean'), measuredMean),
    watts(
      say('wiring.figures.productionHighest'),
      measured.length > 0 ? Math.max(...measured) : null,
    ),
    watts(say('wiring.figures.clearSkyMean'), expected),
    figure(
      say('wiring.figures.productionOverClearSky'),
      measuredMean === null || expected <= 0 ? null : measuredMean / expected,
      '×',
      2,
    ),
    figure(say('wiring.figures.sunElevation'), elevation, '°', 1),
    figure(say('wiring.figures.peakPower'), pv.peakPowerKw, 'kWp', 2),
  ];
  const name = subject ? quoted(subject.name) : say('wiring.clearSky.production');
  if (measuredMean === null) {
    return result(
      'productionVsClearSky',
      'notApplicable',
      subject,
      figures,
      say('wiring.clearSky.noReading'),
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
        ? say('wiring.clearSky.night', { name, power: power(measuredMean) })
        : say('wiring.clearSky.above', {
            name,
            power: power(measuredMean),
            ratio: number(ratio, 1, 1),
            expected: power(expected),
            peak: number(pv.peakPowerKw, 2),
          }),
      say(night ? 'wiring.clearSky.nightAction' : 'wiring.clearSky.aboveAction'),
    );
  }
  if (elevation < DAYLIGHT_SUN_ELEVATION_DEG || expected < DAYLIGHT_MIN_PEAK_SHARE * peakW) {
    return result(
      'productionVsClearSky',
      'notApplicable',
      subject,
      figures,
      say('wiring.clearSky.lowSun', { elevation: number(elevation), expected: power(expected) }),
      say('wiring.clearSky.inDaylight'),
    );
  }
  const highest = Math.max(...measured);
  if (expected >= GOOD_SUN_PEAK_SHARE * peakW && highest <= NOTHING_PEAK_SHARE * peakW) {
    return result(
      'productionVsClearSky',
      'fail',
      subject,
      figures,
      say('wiring.clearSky.nothing', { name, highest: power(highest), expected: power(expected) }),
      say('wiring.clearSky.nothingAction'),
    );
  }
  return result(
    'productionVsClearSky',
    'pass',
    subject,
    figures,
    say('wiring.clearSky.pass', {
      name,
      power: power(measuredMean),
      share: { percent: measuredMean / expected },
      expected: power(expected),
    }),
  );
}
