import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  directionTest,
  runWiringChecks,
  type Reading,
  type WiringInput,
} from '../../../server/domain/wiring/index.ts';
import {
  craftedPlant,
  directionMeter as meter,
  JUNE_NOON,
  steady,
  withReadings,
} from './craftedPlant.ts';
import { en } from './english.ts';

describe('the guided direction test', () => {
  test('a 2 kW kettle: a right meter rises by 2 kW, a reversed one falls', () => {
    const [right, reversed, kilo] = directionTest({
      change: { kind: 'loadSwitchedOn', powerW: 2000 },
      meters: [
        meter({}),
        meter({
          name: 'House meter',
          flow: 'CONSUMPTION',
          before: steady(0, -800),
          after: steady(120_000, -2800),
        }),
        meter({
          name: 'Grid kW',
          unit: 'kW',
          before: [
            [0, 0.4],
            [10_000, 0.42],
          ],
          after: [
            [120_000, 2.4],
            [130_000, 2.41],
          ],
        }),
      ],
    });
    expect(right).toMatchObject({ outcome: 'asExpected', signInverted: false });
    expect(right!.figures.find((f) => en(f.name) === 'change measured')?.value).toBe(2000);
    expect(reversed).toMatchObject({ outcome: 'reversed', signInverted: true });
    expect(en(reversed!.action)).toContain('Turn on the “Sign inverted” setting');
    expect(kilo!.outcome).toBe('asExpected');
  });

  test('a meter already inverted and still backwards gets its setting cleared', () => {
    const [result] = directionTest({
      change: { kind: 'loadSwitchedOn', powerW: 2000 },
      meters: [
        meter({ signInverted: true, before: steady(0, 400), after: steady(120_000, -1600) }),
      ],
    });
    expect(result).toMatchObject({ outcome: 'reversed', signInverted: false });
    expect(en(result!.action)).toMatch(/^Clear/);
  });

  test('the PV switched off moves the grid meter only', () => {
    const [grid, house] = directionTest({
      change: { kind: 'pvSwitchedOff', powerW: 3000 },
      meters: [
        meter({ before: steady(0, -2500), after: steady(120_000, 500) }),
        meter({
          name: 'House meter',
          flow: 'CONSUMPTION',
          before: steady(0, 500),
          after: steady(120_000, 500),
        }),
      ],
    });
    expect(grid!.outcome).toBe('asExpected');
    expect(house!.outcome).toBe('inconclusive');
    expect(en(house!.action)).toContain('known load');
  });

  test('no response, too small a load, or too much noise is inconclusive', () => {
    const noisy: Reading[] = Array.from({ length: 6 }, (_, index): Reading => [
      index * 10_000,
      index % 2 ? 3000 : 0,
    ]);
    const [silent, small, jumpy] = [
      directionTest({
        change: { kind: 'loadSwitchedOn', powerW: 2000 },
        meters: [meter({ after: steady(120_000, 450) })],
      }),
      directionTest({ change: { kind: 'loadSwitchedOn', powerW: 100 }, meters: [meter({})] }),
      directionTest({
        change: { kind: 'loadSwitchedOn', powerW: 2000 },
        meters: [meter({ before: noisy })],
      }),
    ].map((results) => results[0]!);
    expect(silent).toMatchObject({ outcome: 'inconclusive', signInverted: null });
    expect(en(silent!.finding)).toContain('did not respond');
    expect(en(small!.finding)).toContain('too small');
    expect(en(jumpy!.finding)).toContain('on its own');
  });
});

/** A consistent plant at summer noon from generated flows (W); production cloudy to clear. */
const consistentPlant = fc
  .record({
    production: fc.integer({ min: 500, max: 6000 }),
    consumption: fc.integer({ min: 100, max: 6000 }),
    storage: fc.integer({ min: -3000, max: 3000 }),
  })
  .map((flows) => craftedPlant(JUNE_NOON, flows));

const statuses = (input: WiringInput) =>
  runWiringChecks(input).map(
    (check) => `${check.id}:${check.subject?.name ?? '-'}:${check.status}`,
  );

const scaled = (input: WiringInput, factor: number): WiringInput => ({
  ...input,
  sensors: input.sensors.map((sensor) =>
    sensor.dataType === 'POWER' && sensor.readings
      ? { ...sensor, readings: sensor.readings.map(([t, v]): Reading => [t, v * factor]) }
      : sensor,
  ),
});

describe('properties', () => {
  test('the grid sign does not depend on the scale of the powers, only on their signs', () => {
    fc.assert(
      fc.property(
        consistentPlant,
        fc.constantFrom(2, 3, 10),
        fc.boolean(),
        (input, factor, reverse) => {
          const plant = reverse ? withReadings(input, 'Grid meter', (v) => -v) : input;
          const grid = (candidate: WiringInput) =>
            runWiringChecks(candidate).find((check) => check.id === 'gridSign')!.status;
          const small = grid(plant);
          // Scaling up only moves flows above the smallest power judged, never flips a verdict.
          const large = grid(scaled(plant, factor));
          if (small !== 'notApplicable') expect(large).toBe(small);
          if (reverse && large !== 'notApplicable') expect(large).toBe('fail');
          if (!reverse && large !== 'notApplicable') expect(large).toBe('pass');
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a consistent plant reports nothing; with every meter inverted only the sign checks fail', () => {
    const SIGN = new Set(['productionSign', 'consumptionSign', 'gridSign', 'storageSign']);
    fc.assert(
      fc.property(consistentPlant, (input) => {
        expect(
          statuses(input).filter((s) => s.endsWith(':fail') || s.endsWith(':warning')),
        ).toEqual([]);
        const inverted = runWiringChecks(scaled(input, -1));
        const failed = inverted.filter(
          (check) => check.status === 'fail' || check.status === 'warning',
        );
        for (const check of failed) expect(SIGN.has(check.id)).toBe(true);
        // Consumption (at least 100 W) is never negative: its flip is always seen.
        expect(failed.map((check) => check.id)).toContain('consumptionSign');
      }),
      { numRuns: 60 },
    );
  });
});
