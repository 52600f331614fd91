import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../server/measurements/metrics/localTime.ts';
import { updatePlant } from '../../server/features/plants/plantStore.ts';
import { rebuildCoarseRollups } from '../../server/measurements/coarseRollupStore.ts';
import {
  measureFlow,
  measureFlowFromSlots,
  slotRequestOf,
} from '../../server/measurements/metrics/flowMeasures.ts';
import {
  hoursEndingWithDay,
  localDateOf,
  localDaysEndingWith,
  type TimeRange,
} from '../../server/measurements/metrics/localTime.ts';
import type { EnergySensor, PlantFlow } from '../../server/measurements/metrics/plantFlows.ts';
import { quarterSlots } from '../../server/measurements/metrics/rollupSlots.ts';
import { ingestMany } from '../../server/measurements/readingsStore.ts';
import type { Db } from '../../server/db/database.ts';
import { openMeasurementsFixture } from '../unit/measurements/measurementsFixture.ts';

/**
 * Random readings in random zones, read through the coarsest rollups (`rollupSlots`) and through
 * the 15-minute rows alone (`quarterSlots`, what every read did before the coarse tables): the
 * measures are equal to the bit, whatever the zone (+05:45, +05:30, -03:30 with DST, Lord Howe's
 * half-hour DST, Rome across both DST changes), the batches the readings came in, and whether the
 * plant's zone changed before or after they did. The coarse rows kept by ingestion (and the
 * hours packed by UTC day) also equal those of a rebuild from scratch.
 */

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

/** Zones and a UTC day near one of their DST changes (or any day, without DST). */
const ZONES: readonly { zone: string; around: number }[] = [
  { zone: 'Asia/Kathmandu', around: Date.UTC(2026, 5, 1) },
  { zone: 'Asia/Kolkata', around: Date.UTC(2026, 5, 1) },
  { zone: 'Europe/Rome', around: Date.UTC(2026, 2, 28) },
  { zone: 'Europe/Rome', around: Date.UTC(2026, 9, 24) },
  { zone: 'America/St_Johns', around: Date.UTC(2026, 2, 7) },
  { zone: 'Australia/Lord_Howe', around: Date.UTC(2026, 3, 4) },
  { zone: 'UTC', around: Date.UTC(2026, 0, 1) },
];
const WINDOW_MINUTES = 3 * 24 * 60;

interface Case {
  place: (typeof ZONES)[number];
  intervals: number[];
  readings: { minute: number; value: number }[][];
  batches: number;
  zoneChangedAfter: boolean;
  dayOffset: number;
  days: number;
}

const caseArbitrary: fc.Arbitrary<Case> = fc.record({
  place: fc.constantFrom(...ZONES),
  intervals: fc.array(fc.constantFrom(60, 300, 900), { minLength: 1, maxLength: 2 }),
  readings: fc.array(
    fc.uniqueArray(
      fc.record({
        minute: fc.integer({ min: 0, max: WINDOW_MINUTES - 1 }),
        value: fc.double({ min: 0, max: 10_000, noNaN: true }),
      }),
      { selector: (reading) => reading.minute, maxLength: 300 },
    ),
    { minLength: 2, maxLength: 2 },
  ),
  batches: fc.integer({ min: 1, max: 3 }),
  zoneChangedAfter: fc.boolean(),
  dayOffset: fc.integer({ min: 0, max: 3 }),
  days: fc.integer({ min: 1, max: 4 }),
});

describe('coarse rollups answer as the 15-minute ones', () => {
  it('equal measures and a kept state equal to a rebuild', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async (example) => {
        const fixture = await openMeasurementsFixture();
        try {
          await checkCase(fixture.db, fixture, example);
        } finally {
          await fixture.opened.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});

async function checkCase(
  db: Db,
  fixture: Awaited<ReturnType<typeof openMeasurementsFixture>>,
  example: Case,
): Promise<void> {
  const { zone, around } = example.place;
  const start = around - DAY;
  const sensors = await Promise.all(
    example.intervals.map((interval) => fixture.addSensor(['POWER'], interval)),
  );
  const moveZone = async () => {
    const current = await db
      .selectFrom('plants')
      .selectAll()
      .where('plant_uuid', '=', fixture.plantUuid)
      .executeTakeFirstOrThrow();
    await updatePlant(
      db,
      current,
      { location: { latitude: 45, longitude: 7, timezone: zone } },
      new Date().toISOString(),
    );
  };
  if (!example.zoneChangedAfter) await moveZone();

  // Each sensor's readings in `batches` slices of time, written newest slice first.
  for (let batch = example.batches - 1; batch >= 0; batch--) {
    const slice = (minute: number) =>
      Math.floor((minute * example.batches) / WINDOW_MINUTES) === batch;
    await ingestMany(
      db,
      sensors.map((sensor, index) => {
        const readings = (example.readings[index] ?? [])
          .filter((reading) => slice(reading.minute))
          .sort((a, b) => a.minute - b.minute);
        return {
          sensor,
          takenAt: readings.map((reading) => start + reading.minute * MIN),
          values: readings.map((reading) => reading.value),
        };
      }),
    );
  }
  if (example.zoneChangedAfter) await moveZone();

  const flow: PlantFlow = {
    source: 'PLANT_SENSORS',
    terms: [
      sensors.map(
        (sensor) =>
          ({ sensorUuid: sensor.sensorUuid, kind: 'POWER', flow: 'CONSUMPTION' }) as EnergySensor,
      ),
    ],
  };
  const date = addDays(localDateOf(zone, start), example.dayOffset);
  const requests: (readonly TimeRange[])[] = [
    localDaysEndingWith(zone, date, example.days),
    hoursEndingWithDay(zone, date),
    localDaysEndingWith(zone, addDays(date, 1), 7),
  ];
  for (const buckets of requests) {
    const coarse = await measureFlow(db, flow, buckets);
    const { sensorUuids, range, step } = slotRequestOf(flow, buckets);
    const fine = measureFlowFromSlots(
      flow,
      buckets,
      await quarterSlots(db, sensorUuids, range, step),
    );
    expect([...coarse.energyKwh]).toEqual([...fine.energyKwh]);
    expect([...coarse.coveredSeconds]).toEqual([...fine.coveredSeconds]);
  }

  for (const sensor of sensors) {
    const kept = await coarseRows(db, sensor.sensorUuid);
    await rebuildCoarseRollups(db, sensor.sensorUuid, zone);
    expect(kept).toEqual(await coarseRows(db, sensor.sensorUuid));
  }
}

async function coarseRows(db: Db, sensorUuid: string) {
  return {
    hours: await db
      .selectFrom('sensor_hourly_rollups')
      .selectAll()
      .where('sensor_uuid', '=', sensorUuid)
      .orderBy('hour_start')
      .execute(),
    days: await db
      .selectFrom('sensor_daily_rollups')
      .selectAll()
      .where('sensor_uuid', '=', sensorUuid)
      .orderBy('day_start')
      .execute(),
    hourDays: await db
      .selectFrom('sensor_hour_days')
      .selectAll()
      .where('sensor_uuid', '=', sensorUuid)
      .orderBy('day_start')
      .execute(),
  };
}
