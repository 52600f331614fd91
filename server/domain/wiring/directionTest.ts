import { wattsPerUnit } from './series.ts';
import type { Figure, Reading } from './types.ts';
import { formatPower, quoted, watts } from './wording.ts';

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
  finding: string;
  action: string;
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

const CHANGE_WORDS: Record<DirectionChange['kind'], string> = {
  loadSwitchedOn: 'switching the load on',
  pvSwitchedOff: 'switching the PV off',
};

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
      watts('before, mean', before?.mean ?? null),
      watts('after, mean', after?.mean ?? null),
      watts('change measured', measured),
      watts('change expected', expected),
      watts(
        'spread before/after (standard deviation)',
        before && after ? Math.max(before.spread, after.spread) : null,
      ),
    ];
    const inconclusive = (finding: string, action: string): DirectionTestResult => ({
      ...base,
      outcome: 'inconclusive',
      signInverted: null,
      figures,
      finding,
      action,
    });
    if (factor === null) {
      return inconclusive(
        `${quoted(meter.name)} does not report power in W or kW.`,
        'Test a power meter.',
      );
    }
    if (expected === 0) {
      return inconclusive(
        `${CHANGE_WORDS[change.kind]} does not change what ${quoted(meter.name)} measures (consumption does not depend on the PV).`,
        'Test the consumption meter by switching a known load on.',
      );
    }
    if (Math.abs(expected) < DIRECTION_TEST_MIN_W) {
      return inconclusive(
        `A change of ${formatPower(expected)} is too small to stand out.`,
        `Use a load of at least ${DIRECTION_TEST_MIN_W} W (a kettle, a heater).`,
      );
    }
    if (measured === null || !before || !after) {
      return inconclusive(
        `${quoted(meter.name)} has no readings ${before ? 'after' : 'before'} the change.`,
        'Check that the meter reports, then repeat the test.',
      );
    }
    if (Math.max(before.spread, after.spread) > NOISE_SHARE * Math.abs(expected)) {
      return inconclusive(
        `${quoted(meter.name)} varied by ±${formatPower(Math.max(before.spread, after.spread))} on its own, too much next to the ${formatPower(expected)} change.`,
        'Switch off loads that cycle (heat pump, oven), or use a larger load, and repeat the test.',
      );
    }
    const share = measured / expected;
    if (share >= DIRECTION_RESPONSE_SHARE) {
      return {
        ...base,
        outcome: 'asExpected',
        signInverted: inverted,
        figures,
        finding: `${quoted(meter.name)} changed by ${formatPower(measured)} on ${CHANGE_WORDS[change.kind]}, as expected (${formatPower(expected)}): it is mounted the right way${inverted ? ' with its “Sign inverted” setting' : ''}.`,
        action: '',
      };
    }
    if (share <= -DIRECTION_RESPONSE_SHARE) {
      return {
        ...base,
        outcome: 'reversed',
        signInverted: !inverted,
        figures,
        finding: `${quoted(meter.name)} changed by ${formatPower(measured)} on ${CHANGE_WORDS[change.kind]}, where ${formatPower(expected)} was expected: it is mounted backwards.`,
        action: inverted
          ? `Clear the “Sign inverted” setting of ${quoted(meter.name)}.`
          : `Turn on the “Sign inverted” setting of ${quoted(meter.name)}: the server negates its readings from then on, and the report records it.`,
      };
    }
    return inconclusive(
      `${quoted(meter.name)} changed by only ${formatPower(measured)} on ${CHANGE_WORDS[change.kind]}, where ${formatPower(expected)} was expected: it did not respond.`,
      'Check that the meter measures the circuit the load is on (and that a battery did not cover the load: set it to standby), then repeat the test.',
    );
  });
}
