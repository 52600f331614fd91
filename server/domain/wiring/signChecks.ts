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
  FIX_FIRST,
  gridWords,
  number,
  power,
  quoted,
  quotedList,
  recordInversion,
  result,
  say,
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
  PRODUCTION: { id: 'productionSign', words: 'production' },
  CONSUMPTION: { id: 'consumptionSign', words: 'consumption' },
} as const;

/** One series judged: negative most of the time, now and then, never, or at rest. */
function judgeNeverNegative(
  flow: NeverNegativeFlow,
  subject: WiringSensor | null,
  series: readonly Reading[],
): WiringCheckResult {
  const { id, words } = NEVER_NEGATIVE[flow];
  const name = subject ? quoted(subject.name) : say(`wiring.neverNegative.plant.${words}`);
  const values = series.map(([, value]) => value);
  if (values.length === 0) {
    return result(
      id,
      'notApplicable',
      subject,
      [],
      say('wiring.neverNegative.noReading', { name, n: WINDOW_MS / 60_000 }, WINDOW_MS / 60_000),
      say('wiring.neverNegative.checkReports'),
    );
  }
  const negative = values.filter((value) => value < -NEGATIVE_READING_W).length;
  const counts = { name, negative, total: values.length, limit: power(NEGATIVE_READING_W) };
  const lowest = power(Math.min(...values));
  const figures = [
    watts(say('wiring.figures.lowestReading'), Math.min(...values)),
    watts(say('wiring.figures.mean'), mean(values)),
    figure(
      say('wiring.figures.readingsBelow', { limit: power(NEGATIVE_READING_W) }),
      negative,
      '',
      0,
    ),
    figure(say('wiring.figures.readings'), values.length, '', 0),
  ];
  if (negative > values.length / 2) {
    return result(
      id,
      'fail',
      subject,
      figures,
      say(`wiring.neverNegative.fail.${words}`, { ...counts, mean: power(mean(values)) }),
      subject ? recordInversion(subject) : say(`wiring.neverNegative.findMeter.${words}`),
    );
  }
  if (negative > 0) {
    return result(
      id,
      'warning',
      subject,
      figures,
      say('wiring.neverNegative.warning', { ...counts, lowest }),
      say('wiring.neverNegative.watchLive'),
    );
  }
  if (Math.max(...values.map(Math.abs)) <= NEGATIVE_READING_W) {
    return result(
      id,
      'notApplicable',
      subject,
      figures,
      say('wiring.neverNegative.atRest', counts),
      say(`wiring.neverNegative.againWhile.${words}`),
    );
  }
  return result(
    id,
    'pass',
    subject,
    figures,
    say('wiring.neverNegative.pass', { name, mean: power(mean(values)), lowest }),
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
  const { id, words } = NEVER_NEGATIVE[flow];
  return [result(id, 'notApplicable', null, [], say(`wiring.neverNegative.notMeasured.${words}`))];
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
  const gridName = subject ? quoted(subject.name) : say('wiring.gridSign.gridMeters');
  if (!grid) {
    return [
      result(
        'gridSign',
        'notApplicable',
        subject,
        [],
        gridMeters.length === 0
          ? say('wiring.gridSign.notMeasured')
          : say('wiring.gridSign.unreadable', { name: gridName }),
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
        say('wiring.gridSign.needs', {
          flows: { list: missing.map((flow) => say(`wiring.words.flows.${flow}`)) },
        }),
        say('wiring.gridSign.useDirectionTest'),
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
        say(
          'wiring.gridSign.judgedAgainst',
          { sensors: quotedList(suspected.map((sensor) => sensor.name)) },
          suspected.length,
        ),
        FIX_FIRST,
      ),
    ];
  }
  const implied = impliedSamples(terms, 'GRID', length)!;
  const threshold = signThresholdW(input);
  const { agree, contradict } = signAgreement(grid.samples, implied, threshold);
  const gridMean = meanOf(grid.samples);
  const impliedMean = meanOf(implied);
  const figures = [
    watts(say('wiring.figures.gridMean'), gridMean),
    watts(say('wiring.figures.impliedGridMean'), impliedMean),
    watts(say('wiring.figures.productionMean'), meanOf(terms.PRODUCTION!.samples)),
    watts(say('wiring.figures.consumptionMean'), meanOf(terms.CONSUMPTION!.samples)),
    watts(say('wiring.figures.batteryMean'), meanOf(terms.STORAGE!.samples)),
    figure(say('wiring.figures.minutesAgreeing'), agree, 'min', 0),
    figure(say('wiring.figures.minutesContradicting'), contradict, 'min', 0),
    watts(say('wiring.figures.smallestJudged'), threshold),
  ];
  const decided = agree + contradict;
  const words = (value: number | null) =>
    value === null ? say('wiring.words.nothing') : gridWords(value);
  const readsAs = { name: gridName, grid: words(gridMean), implied: words(impliedMean), decided };
  if (decided < MIN_DECIDED_INSTANTS) {
    return [
      result(
        'gridSign',
        'notApplicable',
        subject,
        figures,
        say('wiring.gridSign.tooLittle', {
          minutes: MIN_DECIDED_INSTANTS,
          threshold: power(threshold),
        }),
        say('wiring.gridSign.tooLittleAction'),
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
        say('wiring.gridSign.fail', { ...readsAs, contradict }),
        subject ? recordInversion(subject) : say('wiring.gridSign.findReversed'),
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
        say('wiring.gridSign.pass', { ...readsAs, agree }),
      ),
    ];
  }
  return [
    result(
      'gridSign',
      'warning',
      subject,
      figures,
      say('wiring.gridSign.warning', { name: gridName, agree, decided }),
      say('wiring.gridSign.somePhases'),
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
    return [
      result('storageSign', 'notApplicable', null, [], say('wiring.storageSign.notMeasured')),
    ];
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
          ? say('wiring.storageSign.fewReadings', { soc: quoted(soc.name) })
          : say('wiring.storageSign.noSoc', { sensor: quoted(sensor.name) }),
        say('wiring.storageSign.useDirectionTest'),
      );
    }
    const power = knownValues(sensorSamples(sensor, input.now)!);
    const powerMean = power.length > 0 ? mean(power) : null;
    const socChange = socReadings.at(-1)![1] - socReadings[0]![1];
    const figures = [
      watts(say('wiring.figures.batteryPowerMean'), powerMean),
      figure(say('wiring.figures.socChange'), socChange, '', 1),
      figure(say('wiring.figures.from'), socReadings[0]![1], '%', 1),
      figure(say('wiring.figures.to'), socReadings.at(-1)![1], '%', 1),
    ];
    const points = number(Math.abs(socChange), 1, 1);
    const moved = say(socChange < 0 ? 'wiring.storageSign.fell' : 'wiring.storageSign.rose', {
      points,
    });
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
        say('wiring.storageSign.idle', {
          power: powerMean === null ? say('wiring.storageSign.noPower') : storageWords(powerMean),
          moved,
        }),
        say('wiring.storageSign.againWhile'),
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
        say('wiring.storageSign.pass', {
          sensor: quoted(sensor.name),
          power: storageWords(powerMean),
          moved,
        }),
      );
    }
    return result(
      'storageSign',
      'fail',
      sensor,
      figures,
      say('wiring.storageSign.fail', {
        sensor: quoted(sensor.name),
        power: storageWords(powerMean),
        moved,
      }),
      recordInversion(sensor),
    );
  });
}
