import { describe, expect, test } from 'vitest';
import { runWiringChecks, type WiringInput } from '../../../server/domain/wiring/index.ts';
import { simulatedWiringInput, type SimulatedFaults } from './simulatedPlant.ts';
import { en } from './english.ts';

/**
 * The simulator's faults of the fleet issue, made by the simulator's own functions for its
 * demo home near Bolzano at pinned instants: each is caught by exactly the check meant for it.
 */

const problems = (input: WiringInput) =>
  runWiringChecks(input)
    .filter((check) => check.status === 'fail' || check.status === 'warning')
    .map((check) => `${check.id}:${check.subject?.name ?? '-'}:${check.status}`);

const FAULTS: Record<string, { faults: SimulatedFaults; caughtBy: string }> = {
  REVERSED_CT: {
    faults: { sensorFaults: { grid: { kind: 'REVERSED_CT', fromMs: -Infinity } } },
    caughtBy: 'gridSign:Grid meter:fail',
  },
  KW_INSTEAD_OF_W: {
    faults: { sensorFaults: { consumption: { kind: 'KW_INSTEAD_OF_W', fromMs: -Infinity } } },
    caughtBy: 'powerUnits:House meter:fail',
  },
  INVERTER_TRIP: {
    faults: { pvFaults: [{ kind: 'INVERTER_TRIP', fromMs: -Infinity, factor: 0 }] },
    caughtBy: 'productionVsClearSky:PV meter:fail',
  },
};

/**
 * Summer noon, the spring-forward DST day's noon and a winter afternoon (local, Europe/Rome).
 * Not winter noon: there the battery covers the house and the grid carries next to nothing,
 * so a reversed grid CT cannot show (the grid sign has nothing to judge, and says so).
 */
const INSTANTS = ['2026-06-21T10:00:00Z', '2026-03-29T10:30:00Z', '2026-01-15T14:00:00Z'];

describe.each(INSTANTS)('the simulated home at %s', (iso) => {
  const now = Date.parse(iso);

  test('without faults nothing is reported', () => {
    expect(problems(simulatedWiringInput(now))).toEqual([]);
  });

  test.each(Object.entries(FAULTS))('%s is caught by its check and no other', (_, fault) => {
    expect(problems(simulatedWiringInput(now, fault.faults))).toEqual([fault.caughtBy]);
  });
});

test('with the grid idle a reversed grid CT is not judged; at night a kW meter still shows', () => {
  const winterNoon = Date.parse('2026-01-15T11:00:00Z');
  expect(problems(simulatedWiringInput(winterNoon, FAULTS.REVERSED_CT!.faults))).toEqual([]);
  const grid = runWiringChecks(simulatedWiringInput(winterNoon, FAULTS.REVERSED_CT!.faults)).find(
    (check) => check.id === 'gridSign',
  )!;
  expect(grid.status).toBe('notApplicable');
  expect(en(grid.action)).toContain('guided direction test');
  const night = Date.parse('2026-06-21T22:00:00Z');
  expect(problems(simulatedWiringInput(night))).toEqual([]);
  expect(problems(simulatedWiringInput(night, FAULTS.KW_INSTEAD_OF_W!.faults))).toEqual([
    'powerUnits:House meter:fail',
  ]);
  // A tripped inverter does not show at night: nothing is expected of it.
  expect(problems(simulatedWiringInput(night, FAULTS.INVERTER_TRIP!.faults))).toEqual([]);
});
