import { wattsPerUnit } from './series.ts';
import type { StoredText } from '../../../i18n/text.ts';
import type { Figure, Reading } from './types.ts';
import { power, quoted, say, watts } from './wording.ts';

/**
 * The guided direction test: no reading tells a grid or consumption meter's direction for
 * sure, so the installer makes a known change and the meters' response says it. Switching a
 * load of P watts on must raise both the grid meter (more import) and the consumption meter by
 * about P; switching the PV off (production P before) must raise the grid meter by about P and
 * leave consumption alone. A meter that moves the other way is mounted backwards; the fix is
 * recorded (`signInverted`), not rewired.
 */

export type DirectionChange =
  /** A load of known power (a kettle, a heater) switched on. */
  | { kind: 'loadSwitchedOn'; powerW: number }
  /** The PV switched off; `powerW` is what it produced just before. */
  | { kind: 'pvSwitchedOff'; powerW: number };

export interface DirectionTestMeter {
  sensorUuid: string;
  name: string;
  flow: 'GRID' | 'CONSUMPTION';
  /** Declared unit of its readings (W, kW); null means W. */
  unit: string | null;
  /** The server already negates its readings (they are given as stored). */
  signInverted?: boolean;
  /** Readings over a steady stretch before the change, and after it settled. */
  before: readonly Reading[];
  after: readonly Reading[];
}

export interface DirectionTestInput {
  change: DirectionChange;
  meters: readonly DirectionTestMeter[];
}

export type DirectionOutcome = 'asExpected' | 'reversed' | 'inconclusive';

export interface DirectionTestResult {
  sensorUuid: string;
  name: string;
  outcome: DirectionOutcome;
  /** The `signInverted` setting the meter should have; null when the test did not tell. */
  signInverted: boolean | null;
  figures: Figure[];
  /** Message keys with their figures, worded where shown (wordsOf, i18n/text.ts). */
  finding: StoredText;
  /** The empty string when nothing is to be done. */
  action: StoredText;
}

/** The change must be at least this large to stand out from a household's own variation. */
export const DIRECTION_TEST_MIN_W = 300;
/** A response counts when it is at least this share of the expected change (either sign)… */
export const DIRECTION_RESPONSE_SHARE = 0.5;
/** …and the meter's own spread before and after is below this share of the change. */
const NOISE_SHARE = 0.5;

interface Stretch {
  mean: number;
  spread: number;
}

function stretch(readings: readonly Reading[], factor: number): Stretch | null {
  if (readings.length === 0) return null;
  const values = readings.map(([, value]) => value * factor);
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length;
  return { mean, spread: Math.sqrt(variance) };
}

/** What the change must do to a meter, W (0: the meter does not see it). */
function expectedDeltaW(change: DirectionChange, flow: DirectionTestMeter['flow']): number {
  if (change.kind === 'loadSwitchedOn') return change.powerW;
  return flow === 'GRID' ? change.powerW : 0;
}

/** Concludes, per meter, whether it responded to the change as mounted, reversed, or not. */
export function directionTest(input: DirectionTestInput): DirectionTestResult[] {
  const { change } = input;
  return input.meters.map((meter): DirectionTestResult => {
    const inverted = meter.signInverted ?? false;
    const base = { sensorUuid: meter.sensorUuid, name: meter.name };
    const expected = expectedDeltaW(change, meter.flow);
    const factor = wattsPerUnit(meter.unit ?? 'W');
    const before = factor === null ? null : stretch(meter.before, factor);
    const after = factor === null ? null : stretch(meter.after, factor);
    const measured = before && after ? after.mean - before.mean : null;
    const figures = [
      watts(say('wiring.figures.beforeMean'), before?.mean ?? null),
      watts(say('wiring.figures.afterMean'), after?.mean ?? null),
      watts(say('wiring.figures.changeMeasured'), measured),
      watts(say('wiring.figures.changeExpected'), expected),
      watts(
        say('wiring.figures.spread'),
        before && after ? Math.max(before.spread, after.spread) : null,
      ),
    ];
    const sensor = quoted(meter.name);
    const when = say(`wiring.direction.when.${change.kind}`);
    const inconclusive = (finding: StoredText, action: StoredText): DirectionTestResult => ({
      ...base,
      outcome: 'inconclusive',
      signInverted: null,
      figures,
      finding,
      action,
    });
    if (factor === null) {
      return inconclusive(
        say('wiring.direction.notPower', { sensor }),
        say('wiring.direction.testPowerMeter'),
      );
    }
    if (expected === 0) {
      return inconclusive(
        say(`wiring.direction.unchanged.${change.kind}`, { sensor }),
        say('wiring.direction.testConsumption'),
      );
    }
    if (Math.abs(expected) < DIRECTION_TEST_MIN_W) {
      return inconclusive(
        say('wiring.direction.tooSmall', { expected: power(expected) }),
        say('wiring.direction.largerLoad', { least: power(DIRECTION_TEST_MIN_W) }),
      );
    }
    if (measured === null || !before || !after) {
      return inconclusive(
        say(before ? 'wiring.direction.noneAfter' : 'wiring.direction.noneBefore', { sensor }),
        say('wiring.direction.checkReports'),
      );
    }
    if (Math.max(before.spread, after.spread) > NOISE_SHARE * Math.abs(expected)) {
      return inconclusive(
        say('wiring.direction.noisy', {
          sensor,
          spread: power(Math.max(before.spread, after.spread)),
          expected: power(expected),
        }),
        say('wiring.direction.noisyAction'),
      );
    }
    const response = { sensor, when, measured: power(measured), expected: power(expected) };
    const share = measured / expected;
    if (share >= DIRECTION_RESPONSE_SHARE) {
      return {
        ...base,
        outcome: 'asExpected',
        signInverted: inverted,
        figures,
        finding: say(
          inverted ? 'wiring.direction.rightInverted' : 'wiring.direction.right',
          response,
        ),
        action: '',
      };
    }
    if (share <= -DIRECTION_RESPONSE_SHARE) {
      return {
        ...base,
        outcome: 'reversed',
        signInverted: !inverted,
        figures,
        finding: say('wiring.direction.reversed', response),
        action: say(
          inverted ? 'wiring.direction.clearInverted' : 'wiring.direction.turnOnInverted',
          { sensor },
        ),
      };
    }
    return inconclusive(
      say('wiring.direction.silent', response),
      say('wiring.direction.silentAction'),
    );
  });
}
