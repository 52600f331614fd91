import { balanceTerms, impliedSamples, signThresholdW } from './context.ts';
import {
  flowMeters,
  gridInstants,
  inWindow,
  knownValues,
  meanOf,
  powerReadingsW,
  sensorSamples,
  WINDOW_MS,
} from './series.ts';
import type { Reading, WiringCheckResult, WiringInput, WiringSensor } from './types.ts';
import {
  figure,
  formatPower,
  gridWords,
  quoted,
  recordInversion,
  result,
  storageWords,
  watts,
} from './wording.ts';

/**
 * Sign conventions (api-decisions): production and consumption are never negative, the grid
 * is positive when importing, the battery positive when discharging. A current transformer
 * mounted backwards flips a meter's sign; these checks find which one.
 */

/** A production or consumption reading below −this is negative, not a meter's offset. */
export const NEGATIVE_READING_W = 20;
/** A sign is decided from at least this many comparison instants… */
export const MIN_DECIDED_INSTANTS = 3;
/** …and when this share of them agree (or contradict). */
export const DECISIVE_SHARE = 2 / 3;
/** The battery's state of charge must move this many percentage points to show a direction. */
export const SOC_MIN_CHANGE_POINTS = 1;

const mean = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);

type NeverNegativeFlow = 'PRODUCTION' | 'CONSUMPTION';
const NEVER_NEGATIVE = {
  PRODUCTION: { id: 'productionSign', noun: 'production', meter: 'production meter' },
  CONSUMPTION: { id: 'consumptionSign', noun: 'consumption', meter: 'consumption meter' },
} as const;

/** One series judged: negative most of the time, now and then, never, or at rest. */
function judgeNeverNegative(
  flow: NeverNegativeFlow,
  subject: WiringSensor | null,
  series: readonly Reading[],
): WiringCheckResult {
  const { id, noun } = NEVER_NEGATIVE[flow];
  const name = subject ? quoted(subject.name) : `The plant's ${noun}`;
  const values = series.map(([, value]) => value);
  if (values.length === 0) {
    return result(
      id,
      'notApplicable',
      subject,
      [],
      `${name} has no reading in the last ${WINDOW_MS / 60_000} minutes.`,
      'Check that the sensor reports (the readings check), then run the checks again.',
    );
  }
  const negative = values.filter((value) => value < -NEGATIVE_READING_W).length;
  const figures = [
    watts('lowest reading', Math.min(...values)),
    watts('mean', mean(values)),
    figure('readings below −20 W', negative, 'readings', 0),
    figure('readings', values.length, 'readings', 0),
  ];
  if (negative > values.length / 2) {
    return result(
      id,
      'fail',
      subject,
      figures,
      `${name} is negative in ${negative} of ${values.length} readings (mean ${formatPower(mean(values))}): ${noun} is never negative, so the meter is mounted backwards.`,
      subject
        ? recordInversion(subject)
        : `Find the ${NEVER_NEGATIVE[flow].meter} that reads negative.`,
    );
  }
  if (negative > 0) {
    return result(
      id,
      'warning',
      subject,
      figures,
      `${name} read below −${NEGATIVE_READING_W} W in ${negative} of ${values.length} readings (lowest ${formatPower(Math.min(...values))}).`,
      'Watch the live value: if it goes negative whenever power flows, the meter is mounted backwards.',
    );
  }
  if (Math.max(...values.map(Math.abs)) <= NEGATIVE_READING_W) {
    return result(
      id,
      'notApplicable',
      subject,
      figures,
      `${name} is at rest (|value| ≤ ${NEGATIVE_READING_W} W): a reversed meter only shows when power flows.`,
      flow === 'PRODUCTION'
        ? 'Run the checks again while the PV produces.'
        : 'Run the checks again while something consumes.',
    );
  }
  return result(
    id,
    'pass',
    subject,
    figures,
    `${name} is positive (mean ${formatPower(mean(values))}, lowest ${formatPower(Math.min(...values))}).`,
  );
}

/** Production (or consumption) never negative: per meter, or the server's combined flow. */
export function neverNegative(input: WiringInput, flow: NeverNegativeFlow): WiringCheckResult[] {
  const meters = input.sensors.filter(
    (sensor) => sensor.flow === flow && powerReadingsW(sensor, input.now) !== null,
  );
  if (meters.length > 0) {
    return meters.map((sensor) =>
      judgeNeverNegative(flow, sensor, powerReadingsW(sensor, input.now)!),
    );
  }
  const combined = flow === 'PRODUCTION' ? input.flows?.production : input.flows?.consumption;
  if (combined && flowMeters(input.sensors, flow).length > 0) {
    return [judgeNeverNegative(flow, null, inWindow(combined, input.now))];
  }
  const { id, noun } = NEVER_NEGATIVE[flow];
  return [
    result(
      id,
      'notApplicable',
      null,
      [],
      `No ${noun} power is measured, or its readings cannot be read.`,
    ),
  ];
}

/** Counts of instants where two powers beyond `threshold` agree or contradict in sign. */
export function signAgreement(
  measured: readonly (number | null)[],
  expected: readonly (number | null)[],
  threshold: number,
): { agree: number; contradict: number } {
  let agree = 0;
  let contradict = 0;
  measured.forEach((value, index) => {
    const other = expected[index];
    if (value === null || other === null || other === undefined) return;
    if (Math.abs(value) <= threshold || Math.abs(other) <= threshold) return;
    if (Math.sign(value) === Math.sign(other)) agree++;
    else contradict++;
  });
  return { agree, contradict };
}

/**
 * The grid meter against what production, consumption and the battery say it must read
 * (grid = consumption − production − storage), instant by instant over the window. Deferred
 * while one of those is itself suspected (`suspects`), since it would then be the reference.
 */
export function gridSign(input: WiringInput, suspects: ReadonlySet<string>): WiringCheckResult[] {
  const length = gridInstants(input.now).length;
  const terms = balanceTerms(input, length);
  const grid = terms.GRID;
  const gridMeters = flowMeters(input.sensors, 'GRID');
  const subject = gridMeters.length === 1 ? gridMeters[0]! : null;
  const gridName = subject ? quoted(subject.name) : 'The grid meters';
  if (!grid) {
    return [
      result(
        'gridSign',
        'notApplicable',
        subject,
        [],
        gridMeters.length === 0
          ? 'No grid power is measured.'
          : `${gridName}' readings cannot be read.`,
      ),
    ];
  }
  const missing = (['PRODUCTION', 'CONSUMPTION', 'STORAGE'] as const).filter(
    (flow) => terms[flow] === null,
  );
  if (missing.length > 0) {
    return [
      result(
        'gridSign',
        'notApplicable',
        subject,
        [],
        `The grid meter's sign needs ${missing.map((flow) => flow.toLowerCase()).join(' and ')} measured as well.`,
        'Use the guided direction test: switch a known load on and watch the meter.',
      ),
    ];
  }
  const reference = [terms.PRODUCTION!, terms.CONSUMPTION!, terms.STORAGE!].flatMap(
    (term) => term.sensors,
  );
  const suspected = reference.filter((sensor) => suspects.has(sensor.sensorUuid));
  if (suspected.length > 0) {
    return [
      result(
        'gridSign',
        'notApplicable',
        subject,
        [],
        `The grid meter is judged against ${suspected.map((sensor) => quoted(sensor.name)).join(', ')}, which another check found wrong.`,
        'Fix that first, then run the checks again.',
      ),
    ];
  }
  const implied = impliedSamples(terms, 'GRID', length)!;
  const threshold = signThresholdW(input);
  const { agree, contradict } = signAgreement(grid.samples, implied, threshold);
  const gridMean = meanOf(grid.samples);
  const impliedMean = meanOf(implied);
  const figures = [
    watts('grid meter, mean (import +)', gridMean),
    watts('consumption − production − battery, mean', impliedMean),
    watts('production, mean', meanOf(terms.PRODUCTION!.samples)),
    watts('consumption, mean', meanOf(terms.CONSUMPTION!.samples)),
    watts('battery, mean (discharge +)', meanOf(terms.STORAGE!.samples)),
    figure('minutes agreeing in sign', agree, 'min', 0),
    figure('minutes contradicting', contradict, 'min', 0),
    watts('smallest power judged', threshold),
  ];
  const decided = agree + contradict;
  const words = (value: number | null) => (value === null ? 'nothing' : gridWords(value));
  if (decided < MIN_DECIDED_INSTANTS) {
    return [
      result(
        'gridSign',
        'notApplicable',
        subject,
        figures,
        `Too little flows through the grid connection to judge its sign (fewer than ${MIN_DECIDED_INSTANTS} minutes above ${formatPower(threshold)}).`,
        'Switch a large load on (or wait for the PV to export) and run the checks again, or use the guided direction test.',
      ),
    ];
  }
  if (contradict >= DECISIVE_SHARE * decided) {
    return [
      result(
        'gridSign',
        'fail',
        subject,
        figures,
        `${gridName} reads ${words(gridMean)} while production, consumption and the battery mean ${words(impliedMean)} (opposite sign in ${contradict} of ${decided} minutes): it is mounted backwards.`,
        subject
          ? recordInversion(subject)
          : 'Find the grid meter whose current transformer is reversed.',
      ),
    ];
  }
  if (agree >= DECISIVE_SHARE * decided) {
    return [
      result(
        'gridSign',
        'pass',
        subject,
        figures,
        `${gridName} reads ${words(gridMean)}, as production, consumption and the battery say (same sign in ${agree} of ${decided} minutes).`,
      ),
    ];
  }
  return [
    result(
      'gridSign',
      'warning',
      subject,
      figures,
      `${gridName}'s sign agrees with production, consumption and the battery in only ${agree} of ${decided} minutes.`,
      'A meter may measure only some phases or circuits: use the guided direction test.',
    ),
  ];
}

/** The state-of-charge sensor that goes with a battery power sensor. */
function socSensorFor(input: WiringInput, storage: WiringSensor): WiringSensor | null {
  const socs = input.sensors.filter((sensor) => sensor.dataType === 'STATE_OF_CHARGE');
  const sameDevice = socs.find(
    (sensor) => storage.deviceUuid !== null && sensor.deviceUuid === storage.deviceUuid,
  );
  return sameDevice ?? (socs.length === 1 ? socs[0]! : null);
}

/**
 * Each battery power sensor against the direction its state of charge moved over the window:
 * discharging (positive) must lower it, charging raise it.
 */
export function storageSign(input: WiringInput): WiringCheckResult[] {
  const meters = input.sensors.filter(
    (sensor) => sensor.flow === 'STORAGE' && powerReadingsW(sensor, input.now) !== null,
  );
  if (meters.length === 0) {
    return [result('storageSign', 'notApplicable', null, [], 'No battery power is measured.')];
  }
  const threshold = signThresholdW(input);
  return meters.map((sensor) => {
    const soc = socSensorFor(input, sensor);
    const socReadings = soc?.readings ? inWindow(soc.readings, input.now) : [];
    if (!soc || socReadings.length < 2) {
      return result(
        'storageSign',
        'notApplicable',
        sensor,
        [],
        soc
          ? `${quoted(soc.name)} has too few readings in the window to show a direction.`
          : `No state-of-charge sensor goes with ${quoted(sensor.name)}.`,
        'Use the guided direction test, or add the battery’s state of charge.',
      );
    }
    const power = knownValues(sensorSamples(sensor, input.now)!);
    const powerMean = power.length > 0 ? mean(power) : null;
    const socChange = socReadings.at(-1)![1] - socReadings[0]![1];
    const figures = [
      watts('battery power, mean (discharge +)', powerMean),
      figure('state of charge change', socChange, 'percentage points', 1),
      figure('from', socReadings[0]![1], '%', 1),
      figure('to', socReadings.at(-1)![1], '%', 1),
    ];
    if (
      powerMean === null ||
      Math.abs(powerMean) <= threshold ||
      Math.abs(socChange) < SOC_MIN_CHANGE_POINTS
    ) {
      return result(
        'storageSign',
        'notApplicable',
        sensor,
        figures,
        `The battery was about idle (${powerMean === null ? 'no power reading' : storageWords(powerMean)}, state of charge ${socChange >= 0 ? '+' : ''}${socChange.toFixed(1)} points): nothing to compare.`,
        'Run the checks again while the battery charges or discharges.',
      );
    }
    const discharging = powerMean > 0;
    const socFalling = socChange < 0;
    if (discharging === socFalling) {
      return result(
        'storageSign',
        'pass',
        sensor,
        figures,
        `${quoted(sensor.name)} reads ${storageWords(powerMean)} and the state of charge went ${socFalling ? 'down' : 'up'} ${Math.abs(socChange).toFixed(1)} points, as it should.`,
      );
    }
    return result(
      'storageSign',
      'fail',
      sensor,
      figures,
      `${quoted(sensor.name)} reads ${storageWords(powerMean)} but the state of charge went ${socFalling ? 'down' : 'up'} ${Math.abs(socChange).toFixed(1)} points: its sign is reversed.`,
      recordInversion(sensor),
    );
  });
}
