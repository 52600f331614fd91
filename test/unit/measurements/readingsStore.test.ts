import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ApiError } from '../../../server/http/errors.ts';
import {
  ingest,
  ingestMany,
  latestReadingTimes,
  readingBefore,
  readingsOf,
  recomputeRollups,
  rollupsOf,
  type Reading,
} from '../../../server/measurements/readingsStore.ts';
import {
  readingSensorOf,
  type ReadingSensor,
} from '../../../server/measurements/readingSensors.ts';
import {
  BUCKET_MS,
  bucketCeil,
  bucketStartOf,
  computeRollups,
} from '../../../server/measurements/rollups.ts';
import { openMeasurementsFixture, type MeasurementsFixture } from './measurementsFixture.ts';

const T0 = Date.UTC(2026, 9, 25, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const EVER = [-8.64e15, 8.64e15] as const;

let fixture: MeasurementsFixture;

beforeAll(async () => {
  fixture = await openMeasurementsFixture();
});

afterAll(async () => {
  await fixture.opened.close();
});

const minutes = (count: number, value: (minute: number) => number, start = 0): Reading[] =>
  Array.from({ length: count }, (_, k) => ({ takenAt: T0 + (start + k) * MIN, value: value(k) }));

async function countRows(table: 'readings' | 'sensor_rollups', sensorUuid: string) {
  const row = await fixture.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sensor_uuid', '=', sensorUuid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The rollups a from-scratch computation over every stored reading gives. */
async function recomputedFromScratch(sensor: ReadingSensor) {
  const stored = await readingsOf(fixture.db, sensor.sensorUuid, ...EVER);
  if (stored.length === 0) return [];
  const fromMs = bucketStartOf(stored[0]!.takenAt);
  const toMs = bucketCeil(stored.at(-1)!.takenAt + sensor.samplingIntervalSeconds * 1000);
  return computeRollups({
    kind: sensor.kind,
    samplingIntervalSeconds: sensor.samplingIntervalSeconds,
    fromMs,
    toMs,
    samples: {
      takenAt: stored.map((reading) => reading.takenAt),
      values: stored.map((reading) => reading.value),
    },
  }).map((rollup) => ({ sensorUuid: sensor.sensorUuid, ...rollup }));
}

describe('readingSensorsOf', () => {
  it('reads POWER first, then ENERGY, then the first data type by code', async () => {
    const meter = await fixture.addSensor(['ENERGY', 'VOLTAGE', 'POWER']);
    const counter = await fixture.addSensor(['VOLTAGE', 'ENERGY']);
    const pyranometer = await fixture.addSensor(['TEMPERATURE', 'IRRADIANCE'], 300);
    expect(meter).toMatchObject({ dataType: 'POWER', kind: 'power', samplingIntervalSeconds: 60 });
    expect(counter).toMatchObject({ dataType: 'ENERGY', kind: 'counter' });
    expect(pyranometer).toMatchObject({
      dataType: 'IRRADIANCE',
      kind: 'level',
      samplingIntervalSeconds: 300,
      plantUuid: fixture.plantUuid,
      deviceUuid: null,
      flow: 'CONSUMPTION',
    });
    expect(await readingSensorOf(fixture.db, '7f0c2a52-9d1e-4f7a-8a59-3b8b6c1d2e4f')).toBe(
      undefined,
    );
  });
});

describe('ingest', () => {
  it('stores readings and rolls 1000 W over one hour up into four buckets of 0.25 kWh', async () => {
    const sensor = await fixture.addSensor(['POWER']);
    const stats = await ingest(
      fixture.db,
      sensor,
      minutes(60, () => 1000),
    );
    expect(stats).toEqual({ readings: 60, rollups: 4 });
    const rollups = await rollupsOf(fixture.db, [sensor.sensorUuid], T0, T0 + HOUR);
    expect(rollups).toEqual(
      [0, 15, 30, 45].map((minute) => ({
        sensorUuid: sensor.sensorUuid,
        bucketStart: T0 + minute * MIN,
        energyKwh: 0.25,
        meanValue: 1000,
        minValue: 1000,
        maxValue: 1000,
        sampleCount: 15,
        coveredSeconds: 900,
      })),
    );
    const readings = await readingsOf(fixture.db, sensor.sensorUuid, T0, T0 + 2 * MIN);
    expect(readings).toEqual([
      { sensorUuid: sensor.sensorUuid, takenAt: T0, value: 1000 },
      { sensorUuid: sensor.sensorUuid, takenAt: T0 + MIN, value: 1000 },
    ]);
  });

  it('accepts readings in any order and replaces those at the same time (idempotent)', async () => {
    const sensor = await fixture.addSensor(['POWER']);
    const readings = minutes(30, (k) => 100 * k);
    await ingest(fixture.db, sensor, [...readings].reverse());
    const first = await rollupsOf(fixture.db, [sensor.sensorUuid], ...EVER);
    await ingest(fixture.db, sensor, readings);
    expect(await rollupsOf(fixture.db, [sensor.sensorUuid], ...EVER)).toEqual(first);
    expect(await countRows('readings', sensor.sensorUuid)).toBe(30);
    expect(await countRows('sensor_rollups', sensor.sensorUuid)).toBe(2);

    // A corrected value replaces the stored one and its bucket follows.
    await ingest(fixture.db, sensor, [{ takenAt: T0, value: 6100 }]);
    const [bucket] = await rollupsOf(fixture.db, [sensor.sensorUuid], T0, T0 + BUCKET_MS);
    // Was 0 W for the first minute: +6100 W × 60 s = 366 000 W·s = 0.10166… kWh more.
    expect(bucket!.energyKwh! - first[0]!.energyKwh!).toBeCloseTo(0.1016666667, 9);
    expect(await countRows('readings', sensor.sensorUuid)).toBe(30);
  });

  it('rejects two readings at one time', async () => {
    const sensor = await fixture.addSensor(['POWER']);
    await expect(
      ingest(fixture.db, sensor, [
        { takenAt: T0, value: 1 },
        { takenAt: T0, value: 2 },
      ]),
    ).rejects.toThrow(RangeError);
    expect(await countRows('readings', sensor.sensorUuid)).toBe(0);
  });

  it('updates the neighbouring buckets when a later batch fills a gap', async () => {
    const sensor = await fixture.addSensor(['POWER']);
    await ingest(
      fixture.db,
      sensor,
      minutes(10, () => 1200),
    ); // 00′–09′
    await ingest(
      fixture.db,
      sensor,
      minutes(10, () => 1200, 40),
    ); // 40′–49′
    const before = await rollupsOf(fixture.db, [sensor.sensorUuid], ...EVER);
    // 10 minutes held, then the gap: bucket 0 has 600 s; bucket 30 none; bucket 45 has 300 s.
    expect(
      before.map((rollup) => [(rollup.bucketStart - T0) / MIN, rollup.coveredSeconds]),
    ).toEqual([
      [0, 600],
      [30, 300],
      [45, 300],
    ]);
    await ingest(
      fixture.db,
      sensor,
      minutes(30, () => 1200, 10),
    ); // 10′–39′
    const after = await rollupsOf(fixture.db, [sensor.sensorUuid], ...EVER);
    expect(after.map((rollup) => [(rollup.bucketStart - T0) / MIN, rollup.coveredSeconds])).toEqual(
      [
        [0, 900],
        [15, 900],
        [30, 900],
        [45, 300],
      ],
    );
    expect(after.map((rollup) => rollup.energyKwh)).toEqual([0.3, 0.3, 0.3, 0.1]);
    expect(after).toEqual(await recomputedFromScratch(sensor));
  });

  it('recomputes a counter across batches: 10 → 12 → 1 (reset) → 3 kWh is 5 kWh', async () => {
    const sensor = await fixture.addSensor(['ENERGY'], 900);
    await ingest(fixture.db, sensor, [
      { takenAt: T0 + 5 * MIN, value: 10 },
      { takenAt: T0 + 20 * MIN, value: 12 },
    ]);
    await ingest(fixture.db, sensor, [
      { takenAt: T0 + 50 * MIN, value: 3 },
      { takenAt: T0 + 35 * MIN, value: 1 },
    ]);
    const rollups = await rollupsOf(fixture.db, [sensor.sensorUuid], ...EVER);
    const total = rollups.reduce((sum, rollup) => sum + rollup.energyKwh!, 0);
    expect(total).toBeCloseTo(5, 12);
    expect(rollups.map((rollup) => rollup.coveredSeconds)).toEqual([600, 900, 900, 300]);
    expect(rollups).toEqual(await recomputedFromScratch(sensor));
  });

  it('gives the rollups of a from-scratch computation, whatever the batches', async () => {
    // Readings on a 1-minute grid with holes and irregular offsets, written in random batches
    // (overlapping, out of order, re-sent with new values): the stored rollups must always be
    // those of the final readings computed in one pass.
    const reading = fc.record({
      minute: fc.integer({ min: 0, max: 240 }),
      second: fc.integer({ min: 0, max: 59 }),
      value: fc.integer({ min: -5000, max: 5000 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POWER' as const, 'ENERGY' as const, 'TEMPERATURE' as const),
        fc.integer({ min: 1, max: 600 }),
        fc.array(fc.array(reading, { minLength: 1, maxLength: 40 }), {
          minLength: 1,
          maxLength: 6,
        }),
        async (dataType, interval, batches) => {
          const sensor = await fixture.addSensor([dataType], interval);
          for (const batch of batches) {
            const byTime = new Map<number, number>();
            for (const { minute, second, value } of batch) {
              const v = dataType === 'ENERGY' ? Math.abs(value) : value;
              byTime.set(T0 + minute * MIN + second * 1000, v);
            }
            const readings = [...byTime].map(([takenAt, value]) => ({ takenAt, value }));
            await ingest(fixture.db, sensor, readings);
          }
          const stored = await rollupsOf(fixture.db, [sensor.sensorUuid], ...EVER);
          expect(stored).toEqual(await recomputedFromScratch(sensor));
        },
      ),
      { numRuns: 60, seed: 20261121 },
    );
  });

  it('answers 404 for a sensor deleted meanwhile, and writes nothing', async () => {
    const sensor = await fixture.addSensor(['POWER']);
    await fixture.db.deleteFrom('sensors').where('sensor_uuid', '=', sensor.sensorUuid).execute();
    const failure = await ingest(
      fixture.db,
      sensor,
      minutes(3, () => 1),
    ).catch((e) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure.status).toBe(404);
    expect(await countRows('readings', sensor.sensorUuid)).toBe(0);
  });

  it('removes readings and rollups with their sensor', async () => {
    const sensor = await fixture.addSensor(['POWER']);
    await ingest(
      fixture.db,
      sensor,
      minutes(20, () => 500),
    );
    expect(await countRows('sensor_rollups', sensor.sensorUuid)).toBe(2);
    await fixture.db.deleteFrom('sensors').where('sensor_uuid', '=', sensor.sensorUuid).execute();
    expect(await countRows('readings', sensor.sensorUuid)).toBe(0);
    expect(await countRows('sensor_rollups', sensor.sensorUuid)).toBe(0);
  });
});

describe('ingestMany', () => {
  it('writes several sensors in one transaction, all or nothing', async () => {
    const power = await fixture.addSensor(['POWER']);
    const counter = await fixture.addSensor(['ENERGY']);
    const takenAt = Float64Array.from({ length: 2 * 24 * 60 }, (_, k) => T0 + k * MIN);
    const stats = await ingestMany(fixture.db, [
      { sensor: power, takenAt, values: new Float64Array(takenAt.length).fill(2000) },
      { sensor: counter, takenAt, values: Float64Array.from(takenAt, (_, k) => k / 60) },
    ]);
    expect(stats).toEqual({ readings: 2 * 2880, rollups: 2 * 192 });
    const power48h = await rollupsOf(fixture.db, [power.sensorUuid], ...EVER);
    expect(power48h.reduce((sum, rollup) => sum + rollup.energyKwh!, 0)).toBeCloseTo(96, 9);
    const counted = await rollupsOf(fixture.db, [counter.sensorUuid], ...EVER);
    // 1 kWh a minute-hour: 2879 minutes of increase, the last reading covers nothing.
    expect(counted.reduce((sum, rollup) => sum + rollup.energyKwh!, 0)).toBeCloseTo(2879 / 60, 9);

    const other = await fixture.addSensor(['POWER']);
    await expect(
      ingestMany(fixture.db, [
        { sensor: other, takenAt: [T0, T0 + MIN], values: [1, 2] },
        { sensor: power, takenAt: [T0 + MIN, T0], values: [1, 2] },
      ]),
    ).rejects.toThrow(/strictly increasing/);
    await expect(
      ingestMany(fixture.db, [{ sensor: other, takenAt: [T0], values: [Number.NaN] }]),
    ).rejects.toThrow(/finite/);
    expect(await countRows('readings', other.sensorUuid)).toBe(0);
  });
});

describe('reads', () => {
  it('answers rollups and readings by sensor then time, within the range', async () => {
    const a = await fixture.addSensor(['POWER']);
    const b = await fixture.addSensor(['POWER']);
    await ingest(
      fixture.db,
      b,
      minutes(45, () => 100),
    );
    await ingest(
      fixture.db,
      a,
      minutes(45, () => 200),
    );
    const rollups = await rollupsOf(
      fixture.db,
      [b.sensorUuid, a.sensorUuid],
      T0 + 15 * MIN,
      T0 + HOUR,
    );
    const [first, second] = [a.sensorUuid, b.sensorUuid].sort();
    expect(rollups.map((rollup) => [rollup.sensorUuid, (rollup.bucketStart - T0) / MIN])).toEqual([
      [first, 15],
      [first, 30],
      [second, 15],
      [second, 30],
    ]);
    const readings = await readingsOf(
      fixture.db,
      [b.sensorUuid, a.sensorUuid],
      T0 + 10 * MIN,
      T0 + 12 * MIN,
    );
    expect(readings.map((reading) => [reading.sensorUuid, (reading.takenAt - T0) / MIN])).toEqual([
      [first, 10],
      [first, 11],
      [second, 10],
      [second, 11],
    ]);
    expect(await rollupsOf(fixture.db, [], ...EVER)).toEqual([]);
    expect(await readingBefore(fixture.db, a.sensorUuid, T0 + 10 * MIN)).toEqual({
      takenAt: T0 + 9 * MIN,
      value: 200,
    });
    expect(await readingBefore(fixture.db, a.sensorUuid, T0)).toBe(undefined);
    const latest = await latestReadingTimes(fixture.db, [a.sensorUuid, b.sensorUuid, 'none']);
    expect(latest).toEqual(
      new Map([
        [a.sensorUuid, T0 + 44 * MIN],
        [b.sensorUuid, T0 + 44 * MIN],
      ]),
    );
  });
});

describe('recomputeRollups', () => {
  async function widenInterval(sensor: ReadingSensor, seconds: number) {
    await fixture.db
      .updateTable('sensors')
      .set({ sampling_interval_seconds: seconds })
      .where('sensor_uuid', '=', sensor.sensorUuid)
      .execute();
    return (await readingSensorOf(fixture.db, sensor.sensorUuid))!;
  }

  it('rolls stored readings of a range up again after the sampling interval changed', async () => {
    const sensor = await fixture.addSensor(['POWER'], 60);
    // Every 5 minutes: with a 60 s interval each holds one minute only.
    const fiveMinutely = [0, 5, 10].map((m) => ({ takenAt: T0 + m * MIN, value: 600 }));
    await ingest(fixture.db, sensor, fiveMinutely);
    const [narrow] = await rollupsOf(fixture.db, [sensor.sensorUuid], ...EVER);
    expect(narrow!.coveredSeconds).toBe(180);
    const widened = await widenInterval(sensor, 300);
    const written = await recomputeRollups(fixture.db, widened, { fromMs: T0, toMs: T0 + MIN });
    expect(written).toBe(1);
    const [wide] = await rollupsOf(fixture.db, [sensor.sensorUuid], ...EVER);
    expect(wide!.coveredSeconds).toBe(900);
    expect(wide!.energyKwh).toBeCloseTo(0.15, 12); // 600 W × 900 s
  });

  it('rolls every stored reading up again, dropping rollups they no longer reach', async () => {
    const sensor = await fixture.addSensor(['POWER'], 600);
    // 10′ holds 600 s, into bucket 15: two rollups. With 60 s it holds one minute: one rollup.
    await ingest(fixture.db, sensor, [{ takenAt: T0 + 10 * MIN, value: 600 }]);
    expect(await countRows('sensor_rollups', sensor.sensorUuid)).toBe(2);
    const narrowed = await widenInterval(sensor, 60);
    expect(await recomputeRollups(fixture.db, narrowed)).toBe(1);
    expect(await rollupsOf(fixture.db, [sensor.sensorUuid], ...EVER)).toEqual(
      await recomputedFromScratch(narrowed),
    );
    // No raw readings left, as after raw retention: the rollups are all the history there is.
    const kept = await rollupsOf(fixture.db, [sensor.sensorUuid], ...EVER);
    await fixture.db.deleteFrom('readings').where('sensor_uuid', '=', sensor.sensorUuid).execute();
    expect(await recomputeRollups(fixture.db, narrowed)).toBe(0);
    expect(await rollupsOf(fixture.db, [sensor.sensorUuid], ...EVER)).toEqual(kept);
  });
});
