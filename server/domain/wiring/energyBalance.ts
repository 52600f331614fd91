import { balanceTerms, type BalanceFlow } from './context.ts';
import { gridInstants, meanOf, WINDOW_MS } from './series.ts';
import type { WiringCheckResult, WiringInput } from './types.ts';
import { formatPower, quoted, result, watts } from './wording.ts';

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

const FLOW_NAMES: Record<BalanceFlow, string> = {
  PRODUCTION: 'production',
  CONSUMPTION: 'consumption',
  GRID: 'grid',
  STORAGE: 'battery',
};

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
      `The balance needs consumption, production, grid and battery measured; not measured or not readable: ${missing.map((flow) => FLOW_NAMES[flow]).join(', ')}.`,
    );
  }
  const suspected = flows
    .flatMap((flow) => terms[flow]!.sensors)
    .filter((sensor) => suspects.has(sensor.sensorUuid));
  if (suspected.length > 0) {
    return result(
      'energyBalance',
      'notApplicable',
      null,
      [],
      `Not judged while ${suspected.map((sensor) => quoted(sensor.name)).join(', ')} is found wrong by another check.`,
      'Fix that first, then run the checks again.',
    );
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
      `All four flows have readings in only ${covered} of the last ${WINDOW_MS / 60_000} minutes.`,
      'Wait until every meter reports, then run the checks again.',
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
    watts('consumption, mean', consumption),
    watts('production + grid + battery, mean', supply),
    watts('production, mean', production),
    watts('grid, mean (import +)', grid),
    watts('battery, mean (discharge +)', storage),
    watts('difference', residual),
    watts(
      `tolerance (${ENERGY_BALANCE_TOLERANCE_PERCENT} % of the largest flow, at least ${ENERGY_BALANCE_TOLERANCE_MIN_W} W)`,
      tolerance,
    ),
  ];
  const sentence = `Consumption ${formatPower(consumption)} against production + grid + battery ${formatPower(supply)}: a difference of ${formatPower(residual)}`;
  if (Math.abs(residual) <= tolerance) {
    return result(
      'energyBalance',
      'pass',
      null,
      figures,
      `${sentence}, within ${formatPower(tolerance)}.`,
    );
  }
  return result(
    'energyBalance',
    Math.abs(residual) <= 2 * tolerance ? 'warning' : 'fail',
    null,
    figures,
    `${sentence}, more than the ${formatPower(tolerance)} allowed.`,
    residual > 0
      ? 'Consumption exceeds what comes in: a source (a second inverter, a phase of the grid meter) is not measured, or the consumption meter counts a load twice.'
      : 'More comes in than is consumed: a load is not measured by the consumption meter (a phase, a sub-panel), or a source is counted twice.',
  );
}
