import { clearSkyExpectationW, GOOD_SUN_PEAK_SHARE } from './clearSkyCheck.ts';
import { balanceTerms, impliedSamples, signThresholdW, type BalanceFlow } from './context.ts';
import { flowMeters, gridInstants, isPowerSensor, knownValues, sensorSamples } from './series.ts';
import type { WiringCheckResult, WiringInput, WiringSensor, WiringStatus } from './types.ts';
import { figure, FIX_FIRST, power, quoted, quotedList, result, say, watts } from './wording.ts';

/**
 * Power in the declared unit: a meter that reports kW where W is declared reads a thousand
 * times too little (W where kW is declared, a thousand times too much). Judged against the
 * device's rated power where it is recorded (readings a thousand times above it; a thousandth
 * of it is also standby, so that alone is no verdict), against what the plant's other meters
 * say the meter must read (the balance) where it is one of the plant's flow meters, and, for
 * the production meter in good sun, against the clear sky.
 */

/** "About a thousand times": ratios between these are taken for a unit mistake. */
export const KILO_RATIO_LOW = 300;
export const KILO_RATIO_HIGH = 3000;
/** Of the minutes where the balance is large enough to judge, this share must be ~1000× off. */
const KILO_SHARE = 2 / 3;
const MIN_JUDGED_MINUTES = 3;

const isKilo = (ratio: number) => ratio >= KILO_RATIO_LOW && ratio <= KILO_RATIO_HIGH;

const RANK: Record<WiringStatus, number> = { notApplicable: 0, pass: 1, warning: 2, fail: 3 };

/** Against the device's nameplate: readings far above it, or a thousandth of it. */
function againstRatedPower(input: WiringInput, sensor: WiringSensor): WiringCheckResult | null {
  const device = input.devices.find((candidate) => candidate.deviceUuid === sensor.deviceUuid);
  const rated = device?.ratedPowerW;
  const samples = sensorSamples(sensor, input.now);
  if (!device || !rated || rated <= 0 || !samples) return null;
  const values = knownValues(samples).map(Math.abs);
  if (values.length === 0) return null;
  const largest = Math.max(...values);
  const figures = [
    watts(say('wiring.figures.largestReading'), largest),
    watts(say('wiring.figures.ratedPowerOf', { device: device.name }), rated),
    figure(say('wiring.figures.ratio'), largest / rated, '×', 4),
  ];
  const compared = {
    sensor: quoted(sensor.name),
    device: quoted(device.name),
    largest: power(largest),
    rated: power(rated),
    unit: sensor.unit ?? 'W',
  };
  if (isKilo(largest / rated)) {
    return result(
      'powerUnits',
      'fail',
      sensor,
      figures,
      say('wiring.powerUnits.ratedKilo', compared),
      say('wiring.powerUnits.ratedKiloAction', compared),
    );
  }
  if (largest > 0 && isKilo(rated / largest)) {
    // A thousandth of the rating is also a device in standby: the rating cannot tell them apart.
    return result(
      'powerUnits',
      'notApplicable',
      sensor,
      figures,
      say('wiring.powerUnits.ratedMilli', compared),
      say('wiring.powerUnits.ratedMilliAction', compared),
    );
  }
  return result(
    'powerUnits',
    largest === 0 ? 'notApplicable' : 'pass',
    sensor,
    figures,
    say(largest === 0 ? 'wiring.powerUnits.ratedIdle' : 'wiring.powerUnits.ratedPass', compared),
  );
}

/** A production meter in good sun against the clear sky: a thousandth of it is kW for W. */
function againstClearSky(input: WiringInput, sensor: WiringSensor): WiringCheckResult | null {
  const meters = flowMeters(input.sensors, 'PRODUCTION');
  if (meters.length !== 1 || meters[0]!.sensorUuid !== sensor.sensorUuid) return null;
  const expected = clearSkyExpectationW(input);
  const peakW = (input.plant.pv?.peakPowerKw ?? 0) * 1000;
  const samples = sensorSamples(sensor, input.now);
  if (expected === null || expected < GOOD_SUN_PEAK_SHARE * peakW || !samples) return null;
  const values = knownValues(samples);
  const mean = values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);
  // Clouds lower production ten-fold at most, so a thousandth is not weather.
  if (!(mean > 0) || !isKilo(expected / mean)) return null;
  return result(
    'powerUnits',
    'fail',
    sensor,
    [
      watts(say('wiring.figures.productionMean'), mean),
      watts(say('wiring.figures.clearSkyMean'), expected),
      figure(say('wiring.figures.clearSkyOverProduction'), expected / mean, '×', 0),
    ],
    say('wiring.powerUnits.clearSkyKilo', {
      sensor: quoted(sensor.name),
      mean: power(mean),
      expected: power(expected),
      unit: sensor.unit ?? 'W',
    }),
    say('wiring.powerUnits.setKw'),
  );
}

/** Against the balance of the plant's other meters, when the sensor is its flow's only meter. */
function againstBalance(input: WiringInput, sensor: WiringSensor): BalanceVerdict | null {
  const flow = sensor.flow;
  if (flow === 'AMBIENT') return null;
  const meters = flowMeters(input.sensors, flow);
  if (meters.length !== 1 || meters[0]!.sensorUuid !== sensor.sensorUuid) return null;
  const length = gridInstants(input.now).length;
  const implied = impliedSamples(balanceTerms(input, length), flow as BalanceFlow, length);
  const samples = sensorSamples(sensor, input.now);
  if (!implied || !samples) return null;
  const threshold = signThresholdW(input);
  const ratios: number[] = [];
  samples.forEach((value, index) => {
    const expected = implied[index];
    if (value === null || expected === null || expected === undefined) return;
    if (Math.abs(expected) <= threshold && Math.abs(value) <= threshold) return;
    // Ratio of the larger to the smaller, signed by which one is larger: both unit mistakes.
    ratios.push(value === 0 ? Infinity : expected / value);
  });
  if (ratios.length < MIN_JUDGED_MINUTES) return null;
  const tooSmall = ratios.filter(isKilo).length;
  const tooLarge = ratios.filter((ratio) => ratio !== 0 && isKilo(1 / ratio)).length;
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const figures = [
    watts(say('wiring.figures.readingMedian'), medianOf(knownValues(samples))),
    watts(say('wiring.figures.impliedMedian'), medianOf(knownValues(implied))),
    figure(
      say('wiring.figures.impliedOverReading'),
      Number.isFinite(median) ? median : null,
      '×',
      4,
    ),
    figure(say('wiring.figures.minutesJudged'), ratios.length, 'min', 0),
  ];
  const judged = { sensor: quoted(sensor.name), total: ratios.length, unit: sensor.unit ?? 'W' };
  if (tooSmall >= KILO_SHARE * ratios.length) {
    return tagged(
      'small',
      result(
        'powerUnits',
        'fail',
        sensor,
        figures,
        say('wiring.powerUnits.balanceSmall', { ...judged, count: tooSmall }),
        say('wiring.powerUnits.setKw'),
      ),
    );
  }
  if (tooLarge >= KILO_SHARE * ratios.length) {
    return tagged(
      'large',
      result(
        'powerUnits',
        'fail',
        sensor,
        figures,
        say('wiring.powerUnits.balanceLarge', { ...judged, count: tooLarge }),
        say('wiring.powerUnits.setMeterUnit'),
      ),
    );
  }
  return tagged(
    null,
    result('powerUnits', 'pass', sensor, figures, say('wiring.powerUnits.balancePass', judged)),
  );
}

/** A balance verdict, and which way the meter is a thousand times off, if it is. */
interface BalanceVerdict {
  kilo: 'small' | 'large' | null;
  verdict: WiringCheckResult;
}
const tagged = (kilo: BalanceVerdict['kilo'], verdict: WiringCheckResult): BalanceVerdict => ({
  kilo,
  verdict,
});

/**
 * One meter a thousandth of what it should be makes another of the same balance look a
 * thousand times too large: the thousandth is the mistake (kW reported for W is the usual
 * one), so "too large" verdicts give way to it.
 */
function balanceVerdicts(input: WiringInput, sensors: readonly WiringSensor[]) {
  const verdicts = new Map(
    sensors.map((sensor) => [sensor.sensorUuid, againstBalance(input, sensor)]),
  );
  const small = [...verdicts.values()].filter((entry) => entry?.kilo === 'small');
  if (small.length === 0) return verdicts;
  for (const [uuid, entry] of verdicts) {
    if (entry?.kilo !== 'large') continue;
    verdicts.set(
      uuid,
      tagged(null, {
        ...entry.verdict,
        status: 'notApplicable',
        finding: say(
          'wiring.powerUnits.deferred',
          { sensors: quotedList(small.map((other) => other!.verdict.subject!.name)) },
          small.length,
        ),
        action: FIX_FIRST,
      }),
    );
  }
  return verdicts;
}

function medianOf(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Each power sensor with readings: the stronger verdict of the rating and the balance. */
export function powerUnits(input: WiringInput): WiringCheckResult[] {
  const sensors = input.sensors.filter(
    (sensor) => isPowerSensor(sensor) && sensorSamples(sensor, input.now) !== null,
  );
  const byBalance = balanceVerdicts(input, sensors);
  const results = sensors.flatMap((sensor) => {
    const verdicts = [
      againstRatedPower(input, sensor),
      byBalance.get(sensor.sensorUuid)?.verdict ?? null,
      againstClearSky(input, sensor),
    ].filter((verdict): verdict is WiringCheckResult => verdict !== null);
    if (verdicts.length === 0) return [];
    return [
      verdicts.reduce((worst, next) => (RANK[next.status] > RANK[worst.status] ? next : worst)),
    ];
  });
  if (results.length > 0) return results;
  return [
    result(
      'powerUnits',
      'notApplicable',
      null,
      [],
      say('wiring.powerUnits.nothingToCompare'),
      say('wiring.powerUnits.nothingToCompareAction'),
    ),
  ];
}
