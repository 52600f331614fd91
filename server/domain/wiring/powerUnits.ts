import { clearSkyExpectationW, GOOD_SUN_PEAK_SHARE } from './clearSkyCheck.ts';
import { balanceTerms, impliedSamples, signThresholdW, type BalanceFlow } from './context.ts';
import { flowMeters, gridInstants, isPowerSensor, knownValues, sensorSamples } from './series.ts';
import type { WiringCheckResult, WiringInput, WiringSensor, WiringStatus } from './types.ts';
import { figure, formatPower, quoted, result, watts } from './wording.ts';

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
    watts('largest reading', largest),
    watts(`rated power of ${device.name}`, rated),
    figure('ratio', largest / rated, '×', 4),
  ];
  const unit = sensor.unit ?? 'W';
  if (isKilo(largest / rated)) {
    return result(
      'powerUnits',
      'fail',
      sensor,
      figures,
      `${quoted(sensor.name)} reads up to ${formatPower(largest)} for a device rated ${formatPower(rated)}, about a thousand times more: its readings are in a unit a thousand times smaller than the declared ${unit}, or the rated power was entered in kW.`,
      `Set the sensor's data type to one in W (or correct ${quoted(device.name)}'s rated power).`,
    );
  }
  if (largest > 0 && isKilo(rated / largest)) {
    // A thousandth of the rating is also a device in standby: the rating cannot tell them apart.
    return result(
      'powerUnits',
      'notApplicable',
      sensor,
      figures,
      `${quoted(sensor.name)} reads at most ${formatPower(largest)} for a device rated ${formatPower(rated)}, about a thousandth: the device is in standby, or the sensor reports kW where ${unit} is declared.`,
      `Switch ${quoted(device.name)} on and run the checks again: a running device reads near its rating.`,
    );
  }
  return result(
    'powerUnits',
    largest === 0 ? 'notApplicable' : 'pass',
    sensor,
    figures,
    largest === 0
      ? `${quoted(sensor.name)} read 0 W: the device was idle, nothing to compare with its rating.`
      : `${quoted(sensor.name)} reads up to ${formatPower(largest)} for a device rated ${formatPower(rated)}.`,
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
      watts('production, mean', mean),
      watts('clear-sky expectation, mean', expected),
      figure('clear sky ÷ production', expected / mean, '×', 0),
    ],
    `${quoted(sensor.name)} reads ${formatPower(mean)} where a clear sky allows ${formatPower(expected)}, about a thousandth: it reports kW where ${sensor.unit ?? 'W'} is declared.`,
    "Set the sensor's data type to power in kW, or the meter's output to W.",
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
    watts('reading, median minute', medianOf(knownValues(samples))),
    watts('what the other meters imply, median minute', medianOf(knownValues(implied))),
    figure('implied ÷ reading, median', Number.isFinite(median) ? median : null, '×', 4),
    figure('minutes judged', ratios.length, 'min', 0),
  ];
  const unit = sensor.unit ?? 'W';
  if (tooSmall >= KILO_SHARE * ratios.length) {
    return tagged(
      'small',
      result(
        'powerUnits',
        'fail',
        sensor,
        figures,
        `${quoted(sensor.name)} reads about a thousandth of what the plant's other meters say it must (in ${tooSmall} of ${ratios.length} minutes): it reports kW where ${unit} is declared.`,
        "Set the sensor's data type to power in kW, or the meter's output to W.",
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
        `${quoted(sensor.name)} reads about a thousand times what the plant's other meters say it must (in ${tooLarge} of ${ratios.length} minutes): its readings are in a unit a thousand times smaller than the declared ${unit}.`,
        "Set the sensor's data type to the unit the meter reports in (W where it says kW).",
      ),
    );
  }
  return tagged(
    null,
    result(
      'powerUnits',
      'pass',
      sensor,
      figures,
      `${quoted(sensor.name)} is of the size the plant's other meters imply, not a thousand times off.`,
    ),
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
        finding: `Not judged: ${small.map((other) => quoted(other!.verdict.subject!.name)).join(', ')} reads a thousandth of what it should, which makes this meter look a thousand times too large.`,
        action: 'Fix that first, then run the checks again.',
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
      'No power sensor has a rated device or a balance to be compared with.',
      "Record the devices' rated power, or measure consumption, production, grid and battery.",
    ),
  ];
}
