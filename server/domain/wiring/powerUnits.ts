import { balanceTerms, impliedSamples, signThresholdW, type BalanceFlow } from './context.ts';
import { flowMeters, gridInstants, isPowerSensor, knownValues, sensorSamples } from './series.ts';
import type { WiringCheckResult, WiringInput, WiringSensor, WiringStatus } from './types.ts';
import { figure, formatPower, quoted, result, watts } from './wording.ts';

/**
 * Power in the declared unit: a meter that reports kW where W is declared reads a thousand
 * times too little (W where kW is declared, a thousand times too much). Judged against the
 * device's rated power where it is recorded, and against what the plant's other meters say the
 * meter must read (the balance) where it is one of the plant's flow meters.
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
      `${quoted(sensor.name)} reads up to ${formatPower(largest)} for a device rated ${formatPower(rated)}, about a thousand times more: it reports W where ${unit} is declared, or the rated power is in kW.`,
      `Set the sensor's data type to one in W (or correct ${quoted(device.name)}'s rated power).`,
    );
  }
  if (largest > 0 && isKilo(rated / largest)) {
    // A thousandth of the rating is also a device in standby: a warning, not a verdict.
    return result(
      'powerUnits',
      'warning',
      sensor,
      figures,
      `${quoted(sensor.name)} reads at most ${formatPower(largest)} for a device rated ${formatPower(rated)}, about a thousandth: it may report kW where ${unit} is declared.`,
      `If ${quoted(device.name)} was running, set the sensor's data type to one in kW; if it was idle, switch it on and run the checks again.`,
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

/** Against the balance of the plant's other meters, when the sensor is its flow's only meter. */
function againstBalance(input: WiringInput, sensor: WiringSensor): WiringCheckResult | null {
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
    return result(
      'powerUnits',
      'fail',
      sensor,
      figures,
      `${quoted(sensor.name)} reads about a thousandth of what the plant's other meters say it must (in ${tooSmall} of ${ratios.length} minutes): it reports kW where ${unit} is declared.`,
      "Set the sensor's data type to power in kW, or the meter's output to W.",
    );
  }
  if (tooLarge >= KILO_SHARE * ratios.length) {
    return result(
      'powerUnits',
      'fail',
      sensor,
      figures,
      `${quoted(sensor.name)} reads about a thousand times what the plant's other meters say it must (in ${tooLarge} of ${ratios.length} minutes): it reports W where ${unit} is declared.`,
      "Set the sensor's data type to power in W, or the meter's output to kW.",
    );
  }
  return result(
    'powerUnits',
    'pass',
    sensor,
    figures,
    `${quoted(sensor.name)} is of the size the plant's other meters imply, not a thousand times off.`,
  );
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
  const results = sensors.flatMap((sensor) => {
    const verdicts = [againstRatedPower(input, sensor), againstBalance(input, sensor)].filter(
      (verdict): verdict is WiringCheckResult => verdict !== null,
    );
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
