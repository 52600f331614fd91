import { balanceTerms, type BalanceFlow } from './context.ts';
import { gridInstants, meanOf, WINDOW_MS } from './series.ts';
import type { WiringCheckResult, WiringInput } from './types.ts';
import { FIX_FIRST, notJudgedWhile, power, result, say, watts } from './wording.ts';

/**
 * Energy balance over the window: consumption = production + grid + storage. Meters of
 * different makes disagree by a few percent; beyond that, a load or a source is not measured,
 * a meter sees only some phases, or one is counted twice.
 */

/** Tolerance shown on screen: this share of the largest flow… */
export const ENERGY_BALANCE_TOLERANCE_PERCENT = 5;
/** …but at least this much (meters' offsets at low power). */
export const ENERGY_BALANCE_TOLERANCE_MIN_W = 100;
/** The four flows must be known together for at least this share of the window's minutes. */
const MIN_COVERAGE = 2 / 3;

/**
 * Runs when consumption, production, grid and battery are all measured (a plant without PV or
 * without a battery has that term at a known zero). Deferred while another check suspects one
 * of the meters (`suspects`): a reversed or kW meter breaks the balance, and the check meant
 * for it says which.
 */
export function energyBalance(
  input: WiringInput,
  suspects: ReadonlySet<string>,
): WiringCheckResult {
  const length = gridInstants(input.now).length;
  const terms = balanceTerms(input, length);
  const flows = ['CONSUMPTION', 'PRODUCTION', 'GRID', 'STORAGE'] as const;
  const missing = flows.filter((flow) => terms[flow] === null);
  if (missing.length > 0) {
    return result(
      'energyBalance',
      'notApplicable',
      null,
      [],
      say('wiring.energyBalance.missing', {
        flows: { list: missing.map((flow: BalanceFlow) => say(`wiring.words.flows.${flow}`)) },
      }),
    );
  }
  const suspected = flows
    .flatMap((flow) => terms[flow]!.sensors)
    .filter((sensor) => suspects.has(sensor.sensorUuid));
  if (suspected.length > 0) {
    return result('energyBalance', 'notApplicable', null, [], notJudgedWhile(suspected), FIX_FIRST);
  }
  const complete = Array.from({ length }, (_, index) =>
    flows.every((flow) => terms[flow]!.samples[index] !== null),
  );
  const covered = complete.filter(Boolean).length;
  const series = (flow: BalanceFlow) =>
    terms[flow]!.samples.map((value, index) => (complete[index] ? value : null));
  if (covered < MIN_COVERAGE * length) {
    return result(
      'energyBalance',
      'notApplicable',
      null,
      [],
      say('wiring.energyBalance.coverage', { covered, minutes: WINDOW_MS / 60_000 }),
      say('wiring.energyBalance.waitForAll'),
    );
  }
  const [consumption, production, grid, storage] = flows.map((flow) => meanOf(series(flow))!) as [
    number,
    number,
    number,
    number,
  ];
  const supply = production + grid + storage;
  const residual = consumption - supply;
  const largest = Math.max(...[consumption, production, grid, storage].map(Math.abs));
  const tolerance = Math.max(
    ENERGY_BALANCE_TOLERANCE_MIN_W,
    (ENERGY_BALANCE_TOLERANCE_PERCENT / 100) * largest,
  );
  const figures = [
    watts(say('wiring.figures.consumptionMean'), consumption),
    watts(say('wiring.figures.supplyMean'), supply),
    watts(say('wiring.figures.productionMean'), production),
    watts(say('wiring.figures.gridMeanShort'), grid),
    watts(say('wiring.figures.batteryMean'), storage),
    watts(say('wiring.figures.difference'), residual),
    watts(
      say('wiring.figures.tolerance', {
        percent: ENERGY_BALANCE_TOLERANCE_PERCENT,
        least: power(ENERGY_BALANCE_TOLERANCE_MIN_W),
      }),
      tolerance,
    ),
  ];
  const compared = {
    consumption: power(consumption),
    supply: power(supply),
    difference: power(residual),
    tolerance: power(tolerance),
  };
  if (Math.abs(residual) <= tolerance) {
    return result(
      'energyBalance',
      'pass',
      null,
      figures,
      say('wiring.energyBalance.within', compared),
    );
  }
  return result(
    'energyBalance',
    Math.abs(residual) <= 2 * tolerance ? 'warning' : 'fail',
    null,
    figures,
    say('wiring.energyBalance.beyond', compared),
    say(residual > 0 ? 'wiring.energyBalance.sourceMissing' : 'wiring.energyBalance.loadMissing'),
  );
}
