import { describe, expect, it } from 'vitest';
import {
  combineFlow,
  roundMetric,
  type FlowMeasures,
} from '../../../server/measurements/metrics/flowMeasures.ts';
import {
  consumptionFlow,
  deviceConsumptionSensors,
  flowSensors,
  productionFlow,
  type EnergyFlowName,
  type EnergySensor,
  type PlantFlow,
} from '../../../server/measurements/metrics/plantFlows.ts';
import { bucketIndexOf, slotStepFor } from '../../../server/measurements/metrics/rollupSlots.ts';
import { foldBalanceQuarters } from '../../../server/measurements/metrics/balanceQuarters.ts';
import { hoursEndingWithDay, localDays } from '../../../server/measurements/metrics/localTime.ts';

let sequence = 0;
function sensor(flow: EnergyFlowName, device: string | null = null): EnergySensor {
  sequence += 1;
  return {
    sensorUuid: `sensor-${sequence}`,
    name: `${flow} ${sequence}`,
    deviceUuid: device,
    deviceTypeCode: device ? 'METER' : null,
    flow,
    kind: 'POWER',
    samplingIntervalSeconds: 60,
  };
}

const names = (flow: PlantFlow) => flow.terms.map((term) => term.map((entry) => entry.flow));

describe('plant consumption and production', () => {
  it('prefers plant-level consumption sensors over device-level ones', () => {
    const plantLevel = sensor('CONSUMPTION');
    const device = sensor('CONSUMPTION', 'device-1');
    const flow = consumptionFlow([device, plantLevel, sensor('GRID')]);
    expect(flow).toEqual({ source: 'PLANT_SENSORS', terms: [[plantLevel]] });
    expect(deviceConsumptionSensors([device, plantLevel])).toEqual([device]);
  });

  it('sums device-level consumption sensors when there is no plant-level one', () => {
    const first = sensor('CONSUMPTION', 'device-1');
    const second = sensor('CONSUMPTION', 'device-2');
    expect(consumptionFlow([first, sensor('GRID'), second])).toEqual({
      source: 'DEVICE_SENSORS',
      terms: [[first, second]],
    });
  });

  it('derives consumption from production + grid + storage when the grid is measured', () => {
    const pv = sensor('PRODUCTION', 'inverter');
    const grid = sensor('GRID');
    const battery = sensor('STORAGE', 'battery');
    const flow = consumptionFlow([pv, grid, battery]);
    expect(flow.source).toBe('BALANCE');
    expect(flow.terms).toEqual([[pv], [grid], [battery]]);
    expect(names(consumptionFlow([grid]))).toEqual([['GRID']]);
  });

  it('has no consumption without consumption sensors and grid', () => {
    expect(consumptionFlow([sensor('PRODUCTION'), sensor('STORAGE')]).source).toBe('NONE');
    expect(consumptionFlow([]).terms).toEqual([]);
  });

  it('takes production from plant-level PRODUCTION sensors if any, else device-level ones', () => {
    const inverter = sensor('PRODUCTION', 'inverter');
    const meter = sensor('PRODUCTION');
    expect(flowSensors(productionFlow([inverter, meter]))).toEqual([meter]);
    expect(productionFlow([inverter]).source).toBe('DEVICE_SENSORS');
  });
});

function measures(
  flow: PlantFlow,
  perBucket: [energyKwh: number, coveredSeconds: number][][],
  bucketSeconds = 3600,
): FlowMeasures {
  const buckets = perBucket.map((_, index) => ({
    start: index * bucketSeconds * 1000,
    end: (index + 1) * bucketSeconds * 1000,
  }));
  return {
    flow,
    buckets,
    termSizes: flow.terms.map((term) => term.length),
    energyKwh: Float64Array.from(perBucket.flat().map(([energy]) => energy)),
    coveredSeconds: Float64Array.from(perBucket.flat().map(([, covered]) => covered)),
  };
}

const energyOf = (energyKwh: number) => energyKwh;

describe('combining sensors per bucket', () => {
  const first = sensor('CONSUMPTION', 'a');
  const second = sensor('CONSUMPTION', 'b');
  const sum: PlantFlow = { source: 'DEVICE_SENSORS', terms: [[first, second]] };

  it('sums what each sensor measured, with the mean of their coverages', () => {
    expect(
      combineFlow(
        measures(sum, [
          [
            [0.5, 3600],
            [0.5, 1800],
          ],
          [
            [0.2, 900],
            [0, 0],
          ],
          [
            [0, 0],
            [0, 0],
          ],
        ]),
        energyOf,
      ),
    ).toEqual([
      { value: 1, coverage: 0.75 },
      { value: 0.2, coverage: 0.125 },
      { value: null, coverage: 0 },
    ]);
  });

  it('gives a balance the coverage of its least-known term and never a negative value', () => {
    const pv = sensor('PRODUCTION');
    const grid = sensor('GRID');
    const balance: PlantFlow = { source: 'BALANCE', terms: [[pv], [grid]] };
    expect(
      combineFlow(
        measures(balance, [
          [
            [2, 3600],
            [-0.5, 1800],
          ],
          [
            [0.1, 3600],
            [-0.4, 3600],
          ],
          [
            [1, 3600],
            [0, 0],
          ],
        ]),
        energyOf,
      ),
    ).toEqual([
      { value: 1.5, coverage: 0.5 },
      { value: 0, coverage: 1 },
      { value: null, coverage: 0 },
    ]);
  });

  it('turns energy into mean power over the covered time', () => {
    const meanWatts = (energyKwh: number, coveredSeconds: number) =>
      coveredSeconds > 0 ? (energyKwh * 3_600_000) / coveredSeconds : 0;
    expect(
      combineFlow(
        measures(sum, [
          [
            [0.5, 3600],
            [0.5, 1800],
          ],
        ]),
        meanWatts,
      ),
    ).toEqual([{ value: 1500, coverage: 0.75 }]);
  });

  it('answers null for a flow without sensors', () => {
    expect(combineFlow(measures({ source: 'NONE', terms: [] }, [[]]), energyOf)).toEqual([
      { value: null, coverage: 0 },
    ]);
  });

  it('rounds to six decimals', () => {
    expect(roundMetric(0.1 + 0.2)).toBe(0.3);
    expect(roundMetric(1 / 3)).toBe(0.333333);
  });
});

describe('a balance folded quarter-hour by quarter-hour', () => {
  const pv = sensor('PRODUCTION');
  const grid = sensor('GRID');
  const battery = sensor('STORAGE', 'battery');
  const balance: PlantFlow = { source: 'BALANCE', terms: [[pv], [grid], [battery]] };
  const Q = 900_000;
  const row = (uuid: string, quarter: number, energyKwh: number, coveredSeconds = 900) => ({
    sensorUuid: uuid,
    slotStart: quarter * Q,
    energyKwh,
    coveredSeconds,
  });

  it('counts only quarter-hours where every term is measured, never below 0 each', () => {
    const hours = [
      { start: 0, end: 4 * Q },
      { start: 4 * Q, end: 8 * Q },
    ];
    const folded = foldBalanceQuarters(balance, hours, [
      // Quarter 0: all three: 0.5 + 0.125 − 0.1.
      row(pv.sensorUuid, 0, 0.5),
      row(grid.sensorUuid, 0, 0.125),
      row(battery.sensorUuid, 0, -0.1),
      // Quarter 1: the grid silent: nothing, whatever PV made.
      row(pv.sensorUuid, 1, 0.5),
      row(battery.sensorUuid, 1, 0),
      // Quarter 2: export beyond production (meters disagree): 0, covered; battery half known.
      row(pv.sensorUuid, 2, 0.1),
      row(grid.sensorUuid, 2, -0.3),
      row(battery.sensorUuid, 2, 0, 450),
      // Quarter 5 (second hour): the battery has a row but no covered time.
      row(pv.sensorUuid, 5, 1),
      row(grid.sensorUuid, 5, 1),
      row(battery.sensorUuid, 5, 0, 0),
      // Quarter 6.
      row(pv.sensorUuid, 6, 0.25),
      row(grid.sensorUuid, 6, 0.25),
      row(battery.sensorUuid, 6, 0.25),
    ]);
    expect(Array.from(folded.energyKwh)).toEqual([0.525, 0.75]);
    expect(Array.from(folded.coveredSeconds)).toEqual([900 + 450, 900]);
  });

  it('gives a term of several sensors the mean of their coverages', () => {
    const second = sensor('PRODUCTION', 'inverter-2');
    const flow: PlantFlow = { source: 'BALANCE', terms: [[pv, second], [grid]] };
    const folded = foldBalanceQuarters(
      flow,
      [{ start: 0, end: Q }],
      [row(pv.sensorUuid, 0, 0.2), row(second.sensorUuid, 0, 0, 0), row(grid.sensorUuid, 0, 0.1)],
    );
    expect(folded.energyKwh[0]).toBeCloseTo(0.3, 12);
    expect(Array.from(folded.coveredSeconds)).toEqual([450]);
  });
});

describe('rollup slots', () => {
  it('groups DST-zone days by hour and days without DST by day', () => {
    const rome = localDays(
      'Europe/Rome',
      { year: 2026, month: 3, day: 25 },
      { year: 2026, month: 3, day: 31 },
    );
    expect(slotStepFor(rome)).toBe(3_600_000);
    const summer = localDays(
      'Europe/Rome',
      { year: 2026, month: 6, day: 1 },
      { year: 2026, month: 6, day: 7 },
    );
    expect(slotStepFor(summer)).toBe(86_400_000);
    const kathmandu = hoursEndingWithDay('Asia/Kathmandu', { year: 2026, month: 3, day: 29 });
    expect(slotStepFor(kathmandu)).toBe(3_600_000);
  });

  it('falls back to single rollups for buckets off the 15-minute grid', () => {
    expect(slotStepFor([{ start: 60_000, end: 3_660_000 }])).toBe(900_000);
    expect(slotStepFor([])).toBe(900_000);
  });

  it('finds the bucket holding an instant', () => {
    const buckets = [
      { start: 0, end: 10 },
      { start: 10, end: 25 },
      { start: 25, end: 30 },
    ];
    expect(
      [0, 9, 10, 24, 25, 29, 30, -1].map((instant) => bucketIndexOf(buckets, instant)),
    ).toEqual([0, 0, 1, 1, 2, 2, -1, -1]);
  });
});
