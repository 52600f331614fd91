import { ratioResult, type BenchModule } from './benchResult.ts';
import { bareInsert } from './support/bareInsert.ts';
import { postgresIngestion } from './support/postgresIngest.ts';
import { ingestYear } from './support/yearIngest.ts';
import { yearPlant } from './support/yearPlant.ts';
import { readingCount, simulateYear, YEAR_DAYS } from './support/yearReadings.ts';

/**
 * Readings per second written through the readings store (`ingestMany`: upsert of the raw
 * readings plus their 15-minute, hourly and daily rollups, in the same transaction) against `node:sqlite` alone
 * inserting the same rows into a plain table, in the same run. The bare insert runs before and
 * after the store, and their mean counts, so a drift of the machine's speed during the run
 * (heat, page cache, other processes) weighs on both sides alike.
 */
const TARGET_RATIO = 0.25;
/** Days of the year written on PostgreSQL: its run measures the same work on fewer rows. */
const POSTGRES_DAYS = 30;

export const ingestionBenchmark: BenchModule = {
  title: `Ingestion: readings/s, readings store vs a bare insert, SQLite (1 year) and PostgreSQL (${POSTGRES_DAYS} days) × 8 sensors, 1-minute readings`,
  async run() {
    const plant = await yearPlant();
    const simulationStarted = performance.now();
    const year = simulateYear(plant.sensors);
    const simulationSeconds = (performance.now() - simulationStarted) / 1000;
    const total = readingCount(year);
    console.log(
      `simulated ${total.toLocaleString('en-US')} readings of ${plant.sensors.length} sensors over ` +
        `${YEAR_DAYS} days in ${simulationSeconds.toFixed(1)} s`,
    );

    const sensorUuids = plant.sensors.map((sensor) => sensor.sensorUuid);
    const bareBefore = bareInsert(plant.dir, sensorUuids, year);
    const store = await ingestYear(plant, year);
    const bareAfter = bareInsert(plant.dir, sensorUuids, year);

    const rate = (rows: number, seconds: number) => rows / seconds;
    const bareRates = [bareBefore, bareAfter].map((run) => rate(run.rows, run.seconds));
    const storeRate = rate(store.readings, store.seconds);
    const describe = (value: number) => `${Math.round(value).toLocaleString('en-US')} readings/s`;
    console.log(
      `bare node:sqlite  ${bareRates.map(describe).join(' / ')} (before / after the store)\n` +
        `readings store    ${describe(storeRate)} in ${store.seconds.toFixed(1)} s, ` +
        `${store.rollups.toLocaleString('en-US')} rollup rows written, ` +
        `one ingestMany call per day of all sensors`,
    );

    const written = [bareBefore.rows, bareAfter.rows, store.readings];
    const problem = written.every((rows) => rows === total)
      ? undefined
      : `invalid run: ${total} readings generated but ${written.join(' / ')} written`;

    const postgres = await postgresIngestion(year, POSTGRES_DAYS);
    const postgresTotal = readingCount(year.slice(0, POSTGRES_DAYS));
    const postgresBareRates = postgres.bare.map((run) => rate(run.rows, run.seconds));
    const postgresStoreRate = rate(postgres.store.readings, postgres.store.seconds);
    console.log(
      `bare PostgreSQL   ${postgresBareRates.map(describe).join(' / ')} (before / after the store)\n` +
        `readings store    ${describe(postgresStoreRate)} on PostgreSQL in ` +
        `${postgres.store.seconds.toFixed(1)} s, ` +
        `${postgres.store.rollups.toLocaleString('en-US')} rollup rows written`,
    );
    const postgresWritten = [...postgres.bare.map((run) => run.rows), postgres.store.readings];
    const postgresProblem = postgresWritten.every((rows) => rows === postgresTotal)
      ? undefined
      : `invalid run: ${postgresTotal} readings generated but ${postgresWritten.join(' / ')} written`;
    return [
      ratioResult(
        {
          name: 'ingestMany, 1 year × 8 sensors',
          value: storeRate,
          baseline: (bareRates[0]! + bareRates[1]!) / 2,
          unit: 'readings/s',
          note:
            `${total.toLocaleString('en-US')} readings in ${YEAR_DAYS} transactions of ` +
            `1 day × ${plant.sensors.length} sensors, with their 15-minute, hourly and daily rollups; ` +
            `baseline: plain-table INSERTs in one transaction`,
        },
        TARGET_RATIO,
        problem,
      ),
      ratioResult(
        {
          name: `ingestMany on PostgreSQL, ${POSTGRES_DAYS} days × 8 sensors`,
          value: postgresStoreRate,
          baseline: (postgresBareRates[0]! + postgresBareRates[1]!) / 2,
          unit: 'readings/s',
          note:
            `${postgresTotal.toLocaleString('en-US')} readings in ${POSTGRES_DAYS} transactions, ` +
            `monthly partitions, with their rollups; baseline: one unnest INSERT per sensor and ` +
            `day into a plain table, in one transaction`,
        },
        TARGET_RATIO,
        postgresProblem,
      ),
    ];
  },
};
