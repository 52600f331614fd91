import { describe, expect, test } from 'vitest';
import { computeRollups } from '../../../server/measurements/rollups.ts';
import {
  addressHint,
  resolveChannel,
  type ChannelPlant,
  type ChannelSensor,
} from '../../../server/simulator/channels.ts';
import { createPlantSimulation } from '../../../server/simulator/plantSimulation.ts';
import { sensorReadings } from '../../../server/simulator/sensorReadings.ts';
import { bolzanoHome, DAY_MS, dayIndexOf, sumKwh } from './simulatorFixture.ts';

const MINUTE = 60_000;

describe('sensor readings', () => {
  const start = dayIndexOf(2026, 5, 10) * DAY_MS;

  test('a backfill and minute-by-minute live ticks give the same readings', () => {
    const sensor = {
      channel: { source: 'grid' as const },
      kind: 'power' as const,
      samplingIntervalSeconds: 60,
    };
    const backfill = sensorReadings(
      createPlantSimulation(bolzanoHome()),
      sensor,
      start - 1,
      start + 2 * DAY_MS,
    );
    const live = createPlantSimulation(bolzanoHome());
    const takenAt: number[] = [];
    const values: number[] = [];
    // Ticks at irregular moments, each covering what came since the last one.
    let last = start - 1;
    for (let now = start; now <= start + 2 * DAY_MS; now += 17 * MINUTE + 1234) {
      const tick = sensorReadings(live, sensor, last, now);
      takenAt.push(...tick.takenAt);
      values.push(...tick.values);
      last = tick.takenAt.at(-1) ?? last;
    }
    const tail = sensorReadings(live, sensor, last, start + 2 * DAY_MS);
    takenAt.push(...tail.takenAt);
    values.push(...tail.values);
    expect(takenAt).toEqual(backfill.takenAt);
    expect(values).toEqual(backfill.values);
    expect(backfill.takenAt).toHaveLength(2 * 1440 + 1);
  });

  test('readings come every sampling interval on a grid restarting at UTC midnight', () => {
    const simulation = createPlantSimulation(bolzanoHome());
    const sensor = {
      channel: { source: 'pv' as const },
      kind: 'power' as const,
      samplingIntervalSeconds: 420,
    };
    const { takenAt } = sensorReadings(simulation, sensor, start - 1, start + DAY_MS);
    expect(takenAt[0]).toBe(start);
    expect(takenAt[1]).toBe(start + 7 * MINUTE);
    expect(takenAt.at(-1)).toBe(start + DAY_MS);
    expect(takenAt.at(-2)).toBe(start + 205 * 7 * MINUTE);
    const subMinute = sensorReadings(
      simulation,
      { ...sensor, samplingIntervalSeconds: 15 },
      start - 1,
      start + 2 * MINUTE,
    );
    expect(subMinute.takenAt).toHaveLength(9);
    expect(subMinute.values[1]).toBe(subMinute.values[0]); // the minute's value holds
  });

  test('a POWER sensor integrates to the simulated energy', () => {
    const simulation = createPlantSimulation(bolzanoHome());
    const sensor = {
      channel: { source: 'consumption' as const },
      kind: 'power' as const,
      samplingIntervalSeconds: 60,
    };
    const readings = sensorReadings(simulation, sensor, start - 1, start + DAY_MS - 1);
    const rollups = computeRollups({
      kind: 'power',
      samplingIntervalSeconds: 60,
      fromMs: start,
      toMs: start + DAY_MS,
      samples: readings,
    });
    const energy = rollups.reduce((sum, rollup) => sum + rollup.energyKwh!, 0);
    expect(energy).toBeCloseTo(sumKwh(simulation.day(start / DAY_MS).consumptionW), 9);
  });

  test('an ENERGY counter resets at midnight without losing energy; a grid counter counts imports', () => {
    const simulation = createPlantSimulation(bolzanoHome());
    for (const channel of [{ source: 'pv' as const }, { source: 'grid' as const }]) {
      const sensor = { channel, kind: 'counter' as const, samplingIntervalSeconds: 300 };
      const readings = sensorReadings(simulation, sensor, start - 1, start + 2 * DAY_MS);
      const rollups = computeRollups({
        kind: 'counter',
        samplingIntervalSeconds: 300,
        fromMs: start,
        toMs: start + 2 * DAY_MS,
        // The midnight reading that ends the span closes its last interval.
        samples: { takenAt: readings.takenAt.slice(0, -1), values: readings.values.slice(0, -1) },
        after: { takenAt: readings.takenAt.at(-1)!, value: readings.values.at(-1)! },
      });
      const counted = rollups.reduce((sum, rollup) => sum + rollup.energyKwh!, 0);
      const series = [0, 1].flatMap((offset) => {
        const day = simulation.day(start / DAY_MS + offset);
        return [...(channel.source === 'pv' ? day.pvW : day.gridW)];
      });
      // 5-minute readings of a counter are exact: the counter integrates every minute.
      expect(counted).toBeCloseTo(sumKwh(series.map((watts) => Math.max(watts, 0))), 9);
      expect(readings.values.every((value) => value >= 0)).toBe(true);
    }
  });
});

describe('channels', () => {
  const plant: ChannelPlant = {
    loadOfDevice: (deviceUuid) => (deviceUuid === 'hp-device' ? 'hp-device' : undefined),
    loadOfKind: (kind) => (kind === 'heatPump' ? 'hp-device' : undefined),
  };
  const sensor = (overrides: Partial<ChannelSensor>): ChannelSensor => ({
    flow: 'CONSUMPTION',
    dataType: 'POWER',
    deviceUuid: null,
    address: 'sim://home/meter',
    ...overrides,
  });

  test('flow, data type and device decide', () => {
    expect(resolveChannel(sensor({ flow: 'PRODUCTION' }), plant)).toEqual({ source: 'pv' });
    expect(resolveChannel(sensor({ flow: 'PRODUCTION', dataType: 'ENERGY' }), plant)).toEqual({
      source: 'pv',
    });
    expect(resolveChannel(sensor({ flow: 'STORAGE' }), plant)).toEqual({ source: 'battery' });
    expect(resolveChannel(sensor({ flow: 'STORAGE', dataType: 'STATE_OF_CHARGE' }), plant)).toEqual(
      { source: 'soc' },
    );
    expect(resolveChannel(sensor({ flow: 'GRID' }), plant)).toEqual({ source: 'grid' });
    expect(resolveChannel(sensor({}), plant)).toEqual({ source: 'consumption' });
    expect(resolveChannel(sensor({ deviceUuid: 'hp-device' }), plant)).toEqual({
      source: 'load',
      loadKey: 'hp-device',
    });
    expect(resolveChannel(sensor({ flow: 'AMBIENT', dataType: 'TEMPERATURE' }), plant)).toEqual({
      source: 'temperature',
    });
    expect(resolveChannel(sensor({ flow: 'AMBIENT', dataType: 'IRRADIANCE' }), plant)).toEqual({
      source: 'irradiance',
    });
    expect(resolveChannel(sensor({ flow: 'GRID', dataType: 'CURRENT' }), plant)).toEqual({
      source: 'current',
      of: { source: 'grid' },
    });
  });

  test('the address names a channel where flow and type leave it open', () => {
    expect(addressHint('sim://demo-home/battery/power')).toBe('battery/power');
    expect(addressHint('sim://demo-home/battery/soc/')).toBe('battery/soc');
    expect(addressHint('SIM://x/Heat-Pump')).toBe('heat-pump');
    expect(addressHint('sim://x/pv-east')).toBeUndefined();
    expect(addressHint('sim://pv')).toBeUndefined();
    expect(resolveChannel(sensor({ address: 'sim://x/heat-pump' }), plant)).toEqual({
      source: 'load',
      loadKey: 'hp-device',
    });
    // No EV in this plant: the whole consumption.
    expect(resolveChannel(sensor({ address: 'sim://x/ev-charger' }), plant)).toEqual({
      source: 'consumption',
    });
    expect(resolveChannel(sensor({ flow: 'AMBIENT', address: 'sim://x/grid' }), plant)).toEqual({
      source: 'grid',
    });
    expect(
      resolveChannel(sensor({ flow: 'AMBIENT', address: 'sim://x/wind' }), plant),
    ).toBeUndefined();
  });
});
